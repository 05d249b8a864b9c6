import { useState } from 'react';
import { Alert, Anchor, Group, NumberInput, Paper, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatNumber } from '../../../lib/format';
import { useIpLocation } from '../api/public-pages-api';
import { estimateCreditPrice, formatCurrency, type TCurrency } from '../utils/credit-estimate';

/** /public/credits: how much a number of credits costs (the currency follows where the visitor is). */
export function CreditsCalculatorScreen() {
  const location = useIpLocation();
  const [credits, setCredits] = useState<number | string>(10_000);
  const [chosen, setChosen] = useState<TCurrency | null>(null);
  const currency: TCurrency = chosen ?? location.data?.currency ?? 'USD';
  const amount = typeof credits === 'number' ? credits : Number(credits);
  const valid = Number.isInteger(amount) && amount >= 100 && amount <= 10_000_000;
  const price = valid ? estimateCreditPrice(amount, currency) : null;
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
        {location.isPending ? <Text size="sm">Loading...</Text> : null}
        <Group align="flex-end" grow>
          <NumberInput
            label="Credits"
            value={credits}
            onChange={setCredits}
            min={100}
            max={10_000_000}
            step={1000}
            thousandSeparator=","
            allowDecimal={false}
            error={valid ? null : 'Please enter between 100 and 10,000,000 credits'}
          />
          <SegmentedControl aria-label="Currency" value={currency} onChange={(v) => setChosen(v as TCurrency)} data={['USD', 'INR']} />
        </Group>
        {price ? (
          <Table aria-label="Estimate">
            <Table.Tbody>
              <Table.Tr>
                <Table.Td>Price per credit</Table.Td>
                <Table.Td ta="right">{`${currency} ${price.perCredit}`}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Td>{formatNumber(amount)} credits</Table.Td>
                <Table.Td ta="right">{money(price.subtotal)}</Table.Td>
              </Table.Tr>
              {currency === 'INR' ? (
                <Table.Tr>
                  <Table.Td>GST 18%</Table.Td>
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
          An indicative estimate; the price you pay is shown when you buy credits.{' '}
          <Anchor component={Link} to="/signup">
            Create an account
          </Anchor>
        </Alert>
      </Stack>
    </Paper>
  );
}
