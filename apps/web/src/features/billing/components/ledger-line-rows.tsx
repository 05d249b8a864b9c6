import { useState } from 'react';
import { Button, Group, Table, Text } from '@mantine/core';
import { STACK_ON_PHONE } from '../../../components/stacked-table';
import { ErrorState } from '../../../components/state-views';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { useCreditLedgerRows } from '../api/billing-api';

/** The rows of one expanded ledger line, newest first, 25 at a time. */
export function LedgerLineRows({ lineKey, label }: { lineKey: string; label: string }) {
  const [page, setPage] = useState(1);
  const rows = useCreditLedgerRows(lineKey, page);
  if (rows.isPending) return <Text size="sm">Loading...</Text>;
  if (rows.isError) return <ErrorState error={rows.error} onRetry={() => void rows.refetch()} />;
  const pages = Math.max(1, Math.ceil(rows.data.total / 25));
  return (
    <>
      <Table aria-label={`Rows of ${label}`} withRowBorders={false} fz="xs" className={STACK_ON_PHONE}>
        <Table.Tbody>
          {rows.data.items.map((r) => (
            <Table.Tr key={r.id}>
              <Table.Td>{formatDateTime(r.created_at)}</Table.Td>
              <Table.Td data-label="What">{r.object_id?.includes(':') ? `Row ${r.object_id.split(':').pop() ?? ''}` : r.reason}</Table.Td>
              <Table.Td data-label="Member">{r.user_name ?? '-'}</Table.Td>
              <Table.Td ta="right" data-label="Amount">{`${r.amount > 0 ? '+' : '\u2212'}${formatNumber(Math.abs(r.amount))}`}</Table.Td>
              <Table.Td ta="right" data-label="Balance">{formatNumber(r.balance_after)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {pages > 1 ? (
        <Group gap="xs" justify="flex-end">
          <Button size="compact-xs" variant="default" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Newer
          </Button>
          <Text size="xs">{`${page} / ${pages}`}</Text>
          <Button size="compact-xs" variant="default" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            Older
          </Button>
        </Group>
      ) : null}
    </>
  );
}
