import { useEffect, useState } from 'react';
import { Alert, Button, Card, Group, JsonInput, List, Stack, Text } from '@mantine/core';
import { LoadingScreen } from '../../../components/loading-screen';
import { PageHeader } from '../../../components/page-header';
import { ErrorState } from '../../../components/state-views';
import { isApiError, getErrorMessage } from '../../../lib/api-error';
import { showToast } from '../../../lib/toast';
import { usePricing, useSavePricing } from '../api/ops-api';

/**
 * /ops/pricing: the pricing file's content (price slabs, plans, coupons, seller), edited as JSON and applied by the
 * same code as `npm run ops -- pricing --file`. Slabs and plans given replace the current ones; coupons are added or
 * updated by code. The server's validation errors are listed by field.
 */
export function PricingScreen() {
  const pricing = usePricing();
  const save = useSavePricing();
  const [text, setText] = useState('');
  const [problems, setProblems] = useState<string[]>([]);
  useEffect(() => {
    if (pricing.data) setText(JSON.stringify(pricing.data, null, 2));
  }, [pricing.data]);
  const apply = async () => {
    setProblems([]);
    let config: unknown;
    try {
      config = JSON.parse(text) as unknown;
    } catch (cause) {
      setProblems([`The text is not valid JSON: ${(cause as Error).message}`]);
      return;
    }
    try {
      const saved = await save.mutateAsync(config);
      showToast({ title: 'Prices applied', message: `Applied: ${JSON.stringify(saved.applied)}`, kind: 'success' });
    } catch (cause) {
      const reasons = isApiError(cause) ? cause.reasons.flatMap((r) => r.messages) : [];
      setProblems(reasons.length > 0 ? reasons : [getErrorMessage(cause)]);
    }
  };
  return (
    <Stack>
      <PageHeader title="Plans and coupons" description="The pricing file's content: price slabs, plans, coupons and the seller on invoices." />
      {pricing.isPending ? <LoadingScreen /> : null}
      {pricing.isError ? <ErrorState error={pricing.error} onRetry={() => void pricing.refetch()} /> : null}
      {pricing.data ? (
        <Card>
          <Stack>
            <Text size="sm" c="dimmed">
              Slabs and plans listed here replace the current ones (a plan left out is deactivated); coupons are added or updated by code.
            </Text>
            {problems.length > 0 ? (
              <Alert color="red" title="Not applied" role="alert">
                <List size="sm">
                  {problems.map((p) => (
                    <List.Item key={p}>{p}</List.Item>
                  ))}
                </List>
              </Alert>
            ) : null}
            <JsonInput aria-label="Pricing file" value={text} onChange={setText} autosize minRows={16} maxRows={40} formatOnBlur validationError="Not valid JSON" styles={{ input: { fontFamily: 'monospace', fontSize: 13 } }} />
            <Group>
              <Button onClick={() => void apply()} loading={save.isPending}>
                Apply prices
              </Button>
              <Button variant="default" onClick={() => pricing.data && setText(JSON.stringify(pricing.data, null, 2))}>
                Discard changes
              </Button>
            </Group>
          </Stack>
        </Card>
      ) : null}
    </Stack>
  );
}
