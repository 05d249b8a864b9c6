import { useState } from 'react';
import { Alert, Anchor, Group, NumberInput, Paper, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatNumber } from '../../../lib/format';
import { MAX_PURCHASE_CREDITS, MIN_PURCHASE_CREDITS } from '@verilead/contracts';
import { ErrorState } from '../../../components/state-views';
import { useIpLocation, usePublicPrice } from '../api/public-pages-api';
import { formatCurrency, type TCurrency } from '../utils/credit-estimate';

/** /public/credits: how much a number of credits costs (the currency follows where the visitor is). */
export function CreditsCalculatorScreen() {
  const location = useIpLocation();
  const [credits, setCredits] = useState<number | string>(10_000);
  const [chosen, setChosen] = useState<TCurrency | null>(null);
  const currency: TCurrency = chosen ?? location.data?.currency ?? 'USD';
  const amount = typeof credits === 'number' ? credits : Number(credits);
  const valid = Number.isInteger(amount) && amount >= MIN_PURCHASE_CREDITS && amount <= MAX_PURCHASE_CREDITS;
  // The quote comes from the price slabs billing sells at (GET /public/price).
  const quote = usePublicPrice(amount, currency, valid);
  const price = valid ? quote.data : undefined;
  const money = (v: number) => formatCurrency(v, currency);

  return (
    <Paper withBorder shadow="sm" p={{ base: 'lg', sm: 36 }} radius="lg" w="100%" maw={560}>
      <Stack gap="md">
        <Title order={1} fz={26}>
          Credits calculator
        </Title>
        <Text size="sm" c="dimmed">
          One credit verifies one e-mail address or finds one e-mail. Duplicates and unknown results are free.
        </Text>
        {location.isPending || (valid && quote.isPending) ? <Text size="sm">Loading...</Text> : null}
        <Group align="flex-end" grow>
          <NumberInput
            label="Credits"
            value={credits}
            onChange={setCredits}
            min={MIN_PURCHASE_CREDITS}
            max={MAX_PURCHASE_CREDITS}
            step={1000}
            thousandSeparator=","
            allowDecimal={false}
            error={valid ? null : `Please enter between ${formatNumber(MIN_PURCHASE_CREDITS)} and ${formatNumber(MAX_PURCHASE_CREDITS)} credits`}
          />
          <SegmentedControl aria-label="Currency" value={currency} onChange={(v) => setChosen(v as TCurrency)} data={['USD', 'INR']} />
        </Group>
        {valid && quote.isError && !price ? <ErrorState error={quote.error} onRetry={() => void quote.refetch()} /> : null}
        {price ? (
          <Table aria-label="Estimate">
            <Table.Tbody>
              <Table.Tr>
                <Table.Td>Price per credit</Table.Td>
                <Table.Td ta="right" data-testid="credits-unit-price">{`${currency} ${price.unit_price}`}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Td>{formatNumber(amount)} credits</Table.Td>
                <Table.Td ta="right">{money(price.subtotal)}</Table.Td>
              </Table.Tr>
              {currency === 'INR' ? (
                <Table.Tr>
                  <Table.Td>{`GST ${price.tax_percent}%`}</Table.Td>
                  <Table.Td ta="right">{money(price.tax)}</Table.Td>
                </Table.Tr>
              ) : null}
              <Table.Tr>
                <Table.Td fw={700}>Total</Table.Td>
                <Table.Td ta="right" fw={700} data-testid="credits-total">
                  {money(price.total)}
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        ) : null}
        <Alert color="indigo" variant="light" icon={<IconInfoCircle size={18} />}>
          Today's prices; taxes and coupons are settled when you buy credits.{' '}
          <Anchor component={Link} to="/signup">
            Create an account
          </Anchor>
        </Alert>
      </Stack>
    </Paper>
  );
}
