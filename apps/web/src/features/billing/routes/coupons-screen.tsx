import { useState } from 'react';
import { Alert, Badge, Button, Card, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconTicket } from '@tabler/icons-react';
import type { TCouponRedemption } from '@verilead/contracts';
import { PageHeader } from '../../../components/page-header';
import { PagedTableFooter } from '../../../components/paged-table-footer';
import { EmptyState, ErrorState } from '../../../components/state-views';
import { getErrorMessage } from '../../../lib/api-error';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { useApplyCoupon, useCouponHistory } from '../api/payments-api';
import { formatAmount } from '../components/money';

/** What a redeemed coupon gave, in words: "500 free credits" or "10% off INV-000012 (saved $4.00)". */
function describeCouponBenefit(r: TCouponRedemption): string {
  if (r.kind === 'credits') return `${formatNumber(r.credits_granted)} free credits`;
  const saved = r.discount !== null && r.currency ? ` (saved ${formatAmount(r.currency, r.discount)})` : '';
  return r.invoice_number ? `${r.value}% off ${r.invoice_number}${saved}` : `${r.value}% off a purchase`;
}

function CouponHistory() {
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(25);
  const history = useCouponHistory(page, limit);
  return (
    <Card>
      <Title order={4} mb="sm">
        Redeemed coupons
      </Title>
      {history.isPending ? <Text size="sm">Loading...</Text> : null}
      {history.isError ? <ErrorState error={history.error} onRetry={() => void history.refetch()} /> : null}
      {history.data && history.data.items.length === 0 ? (
        <EmptyState title="No coupons redeemed yet" description="Coupons your organisation redeems are listed here." />
      ) : null}
      {history.data && history.data.items.length > 0 ? (
        <>
          <Table striped aria-label="Redeemed coupons">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Code</Table.Th>
                <Table.Th>What it gave</Table.Th>
                <Table.Th>Redeemed</Table.Th>
                <Table.Th>By</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {history.data.items.map((r) => (
                <Table.Tr key={r.id}>
                  <Table.Td>
                    <Group gap="xs">
                      <Text ff="monospace">{r.code}</Text>
                      <Badge variant="light" size="sm" color={r.kind === 'credits' ? 'teal' : 'indigo'}>
                        {r.kind === 'credits' ? 'Credits' : 'Discount'}
                      </Badge>
                    </Group>
                  </Table.Td>
                  <Table.Td>{describeCouponBenefit(r)}</Table.Td>
                  <Table.Td>{formatDateTime(r.redeemed_at)}</Table.Td>
                  <Table.Td>{r.redeemed_by ? `${r.redeemed_by.name} (${r.redeemed_by.email})` : 'A former member'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <PagedTableFooter
            page={page}
            limit={limit}
            total={history.data.total}
            onPageChange={setPage}
            onLimitChange={(l) => {
              setLimit(l);
              setPage(1);
            }}
          />
        </>
      ) : null}
    </Card>
  );
}

/** /account/coupons: apply a coupon code (free credits at once, or a discount shown for the next purchase) and the coupons redeemed. */
export function CouponsScreen() {
  const [code, setCode] = useState('');
  const apply = useApplyCoupon();
  return (
    <>
      <PageHeader title="Coupons" description="Redeem a coupon code for free credits or a discount." />
      <Stack gap="lg">
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
        <CouponHistory />
      </Stack>
    </>
  );
}
