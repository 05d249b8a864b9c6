import { useState } from 'react';
import { Alert, Button, Card, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconTicket } from '@tabler/icons-react';
import { PageHeader } from '../../../components/page-header';
import { getErrorMessage } from '../../../lib/api-error';
import { useApplyCoupon } from '../api/payments-api';

/** /account/coupons: apply a coupon code (free credits at once, or a discount shown for the next purchase). */
export function CouponsScreen() {
  const [code, setCode] = useState('');
  const apply = useApplyCoupon();
  return (
    <>
      <PageHeader title="Coupons" description="Redeem a coupon code for free credits or a discount." />
      <Card maw={520}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            apply.mutate({ code });
          }}
        >
          <Stack>
            <Group align="flex-start">
              <TextInput
                label="Coupon code"
                value={code}
                onChange={(e) => setCode(e.currentTarget.value)}
                error={apply.isError ? getErrorMessage(apply.error) : null}
                style={{ flex: 1 }}
              />
              <Button type="submit" mt={25} loading={apply.isPending} leftSection={<IconTicket size={16} />}>
                Apply
              </Button>
            </Group>
            {apply.data ? (
              <Alert color="teal" role="status">
                <Text size="sm">{apply.data.message}</Text>
                {apply.data.kind === 'percent' ? <Text size="sm">Enter the code in the buy-credits window to use it.</Text> : null}
              </Alert>
            ) : null}
          </Stack>
        </form>
      </Card>
    </>
  );
}
