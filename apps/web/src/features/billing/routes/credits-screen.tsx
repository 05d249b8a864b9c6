import { Fragment, useState } from 'react';
import { ActionIcon, Badge, Card, Group, SimpleGrid, Table, Text, Title } from '@mantine/core';
import { IconBuilding, IconCalendar, IconChevronDown, IconChevronRight, IconCoins, IconSunHigh } from '@tabler/icons-react';
import { ZCreditTransactionKind, type TCreditLedgerGroup, type TCreditTransactionKind } from '@verilead/contracts';
import { LoadingScreen } from '../../../components/loading-screen';
import { PageHeader } from '../../../components/page-header';
import { FilterSelect, PagedQueryTable, usePagedFilter, usePaging } from '../../../components/paged-table-footer';
import { ErrorState } from '../../../components/state-views';
import { StatCard } from '../../../components/stat-card';
import { formatDate, formatDateTime, formatLimitUsage, formatNumber, humanizeKey, toZonedDayRange } from '../../../lib/format';
import { useCreditsAndLimits } from '../../../lib/user-queries';
import { useCreditLedger } from '../api/billing-api';
import { LedgerLineRows } from '../components/ledger-line-rows';
import { DayRangeInput, type TDayRange } from '../../../components/day-range-input';

const KIND_COLORS: Record<TCreditTransactionKind, string> = { grant: 'indigo', purchase: 'teal', charge: 'orange', refund: 'cyan' };
const KIND_OPTIONS = ZCreditTransactionKind.options.map((kind) => ({ value: kind, label: humanizeKey(kind) }));


/** A signed ledger amount: a charge (negative) in the neutral text colour with a real minus sign, credits added in green. */
function CreditAmount({ amount }: { amount: number }) {
  const positive = amount > 0;
  return (
    <Text size="sm" fw={600} c={positive ? 'green.7' : undefined} data-testid="transaction-amount" data-tone={positive ? 'positive' : 'neutral'}>
      {positive ? '+' : amount < 0 ? '\u2212' : ''}
      {formatNumber(Math.abs(amount))}
    </Text>
  );
}

/** What a ledger line is: a job's rows, a day's instant calls from one source, or one movement. */
function describeLine(line: TCreditLedgerGroup): string {
  if (line.group === 'job') return `${line.reason} · ${formatNumber(line.count)} row${line.count === 1 ? '' : 's'}`;
  if (line.group === 'day') return `${line.reason} · ${formatNumber(line.count)} call${line.count === 1 ? '' : 's'} on ${formatDate(`${line.day}T12:00:00Z`, 'UTC')}`;
  return line.reason;
}

/** Balance, limits and the paged, filterable credits ledger: one line per job and per day of instant calls, expandable. */
export function CreditsScreen() {
  const credits = useCreditsAndLimits();
  const paging = usePaging();
  const { page, limit, setPage } = paging;
  const [kind, setKind] = usePagedFilter<TCreditTransactionKind | null>(null, setPage);
  const [range, setRange] = usePagedFilter<TDayRange>([null, null], setPage);
  // The picked calendar days on the user's clock (their timezone setting), as instants.
  const { from, to } = toZonedDayRange(range);
  const transactions = useCreditLedger({ page, limit, kind: kind ?? undefined, from, to: from ? to : undefined });
  const [open, setOpen] = useState<string | null>(null);

  return (
    <>
      <PageHeader title="Credits & transactions" description="Your balance, your limits and every credit movement." />
      {credits.isPending ? <LoadingScreen minHeight={120} /> : null}
      {credits.isError ? <ErrorState error={credits.error} onRetry={() => void credits.refetch()} /> : null}
      {credits.data ? (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="lg" mb="lg">
          <StatCard label="Available credits" value={formatNumber(credits.data.credits)} icon={<IconCoins size={22} />} hint="What you can spend now" />
          <StatCard
            label="Organisation credits"
            value={formatNumber(credits.data.org_credits)}
            icon={<IconBuilding size={22} />}
            color="teal"
            hint="Shared balance of your organisation"
          />
          <StatCard
            label="Daily limit"
            value={credits.data.limits.daily.limit === null ? 'Unlimited' : formatNumber(credits.data.limits.daily.remaining ?? 0)}
            icon={<IconSunHigh size={22} />}
            color="orange"
            hint={`${credits.data.limits.daily.limit === null ? 'No daily cap' : formatLimitUsage(credits.data.limits.daily)} · ${formatNumber(credits.data.limits.daily.used)} used today`}
          />
          <StatCard
            label="Lifetime limit"
            value={
              credits.data.limits.life_time.limit === null ? 'Unlimited' : formatNumber(credits.data.limits.life_time.remaining ?? 0)
            }
            icon={<IconCalendar size={22} />}
            color="grape"
            hint={`${credits.data.limits.life_time.limit === null ? 'No lifetime cap' : formatLimitUsage(credits.data.limits.life_time)} · ${formatNumber(credits.data.limits.life_time.used)} used`}
          />
        </SimpleGrid>
      ) : null}

      <Card>
        <Group justify="space-between" mb="md" wrap="wrap" gap="sm">
          <Title order={4} fz={16}>
            Transactions
          </Title>
          <Group gap="sm" wrap="wrap">
            <DayRangeInput value={range} onChange={setRange} />
            <FilterSelect label="Kind" placeholder="All kinds" data={KIND_OPTIONS} value={kind} onChange={setKind} width={160} />
          </Group>
        </Group>
        <PagedQueryTable
          query={transactions}
          paging={paging}
          loadingHeight={160}
          empty={{
            title: 'No transactions',
            description: kind || from ? 'Nothing matches these filters. Try another date range or kind.' : 'Credit grants, purchases, charges and refunds will appear here.',
          }}
          label="Credit transactions"
          minWidth={760}
          stackOnPhone
          head={
            <>
              <Table.Th>Date</Table.Th>
              <Table.Th>Kind</Table.Th>
              <Table.Th>Description</Table.Th>
              <Table.Th>Member</Table.Th>
              <Table.Th ta="right">Amount</Table.Th>
              <Table.Th ta="right">Balance</Table.Th>
            </>
          }
        >
          {(items) =>
            items.map((line) => (
              <Fragment key={line.key}>
                <Table.Tr>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      {line.count > 1 ? (
                        <ActionIcon
                          variant="subtle"
                          size="sm"
                          aria-expanded={open === line.key}
                          aria-label={`${open === line.key ? 'Hide' : 'Show'} the ${formatNumber(line.count)} rows of ${describeLine(line)}`}
                          onClick={() => setOpen(open === line.key ? null : line.key)}
                        >
                          {open === line.key ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
                        </ActionIcon>
                      ) : null}
                      <Text size="sm">{formatDateTime(line.last_at)}</Text>
                    </Group>
                  </Table.Td>
                  <Table.Td data-label="Kind">
                    <Badge variant="light" color={KIND_COLORS[line.kind]}>
                      {humanizeKey(line.kind)}
                    </Badge>
                  </Table.Td>
                  <Table.Td data-label="Description">
                    <Text size="sm">{describeLine(line)}</Text>
                    {line.source_agent ? (
                      <Text size="xs" c="dimmed">
                        {humanizeKey(line.source_agent)}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td data-label="Member">
                    <Text size="sm">{line.user_name ?? '-'}</Text>
                  </Table.Td>
                  <Table.Td ta="right" data-label="Amount">
                    <CreditAmount amount={line.amount} />
                  </Table.Td>
                  <Table.Td ta="right" data-label="Balance">
                    <Text size="sm">{formatNumber(line.balance_after)}</Text>
                  </Table.Td>
                </Table.Tr>
                {open === line.key ? (
                  <Table.Tr>
                    <Table.Td colSpan={6} bg="gray.0">
                      <LedgerLineRows lineKey={line.key} label={describeLine(line)} />
                    </Table.Td>
                  </Table.Tr>
                ) : null}
              </Fragment>
            ))
          }
        </PagedQueryTable>
      </Card>
    </>
  );
}
