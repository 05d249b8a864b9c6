import { useState } from 'react';
import { Alert, Badge, Button, Group, Loader, Modal, Pagination, ScrollArea, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { ZReverifyChangesData, type TKeepVerifiedData, type TReverifyChange, type TReverifyRun } from '@verilead/contracts';
import { requestApi } from '../../../lib/api-client';
import { getErrorMessage } from '../../../lib/api-error';
import { saveCsv, toCsv } from '../../../lib/csv-export';
import { formatDateTime, formatNumber, humanizeKey } from '../../../lib/format';
import { useRunChanges } from '../api/keep-verified-api';

const STATE_COLOR: Record<TReverifyRun['state'], string> = { queued: 'gray', running: 'blue', completed: 'green', skipped: 'orange', stopped: 'red' };
const status = (s: string | null) => (s ? humanizeKey(s) : 'Not verified');

/** The transitions of a run, e.g. "Valid → Invalid 3" (unchanged rows left out). */
function Transitions({ run }: { run: TReverifyRun }) {
  const moves = run.transitions.filter((t) => t.from !== t.to);
  if (moves.length === 0) return <Text size="sm" c="dimmed">{run.state === 'completed' ? 'No change' : '—'}</Text>;
  return (
    <Group gap={4}>
      {moves.map((t) => (
        <Badge key={`${t.from}>${t.to}`} variant="light" color={t.to === 'invalid' ? 'red' : t.to === 'valid' ? 'green' : 'gray'} tt="none">
          {`${status(t.from)} → ${status(t.to)}: ${formatNumber(t.count)}`}
        </Badge>
      ))}
    </Group>
  );
}

/** Every page of a run's changed rows, saved as a CSV (row, address, previous and new status). */
async function exportChanges(listId: string, run: TReverifyRun, all: boolean) {
  const rows: TReverifyChange[] = [];
  for (let page = 1; ; page += 1) {
    const data = await requestApi({ path: '/email_verify/list/keep_verified/changes', query: { list_id: listId, run_id: run.id, page, per_page: 500, all: String(all) }, schema: ZReverifyChangesData });
    rows.push(...data.rows);
    if (rows.length >= data.total || data.rows.length === 0) break;
  }
  const csv = toCsv(rows, [
    { key: 'row_number', label: 'Row' },
    { key: 'email', label: 'Email' },
    { key: 'previous_status', label: 'Previous status' },
    { key: 'previous_verified_at', label: 'Previously verified' },
    { key: 'status', label: 'Status' },
  ]);
  saveCsv(`changes-${run.due_at.slice(0, 10)}.csv`, csv);
}

function RunChangesModal({ listId, run, onClose }: { listId: string; run: TReverifyRun | null; onClose: () => void }) {
  const [page, setPage] = useState(1);
  const [all, setAll] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);
  const changes = useRunChanges(listId, run?.id ?? null, page, all);
  const pages = changes.data ? Math.max(1, Math.ceil(changes.data.total / changes.data.per_page)) : 1;
  return (
    <Modal opened={run !== null} onClose={onClose} title={run ? `Changes of the run of ${formatDateTime(run.finished_at ?? run.due_at)}` : ''} size="lg" centered>
      <Stack gap="sm">
        <Group justify="space-between">
          <Switch label="Show every re-checked row" checked={all} onChange={(e) => { setAll(e.currentTarget.checked); setPage(1); }} />
          <Button
            size="xs"
            variant="light"
            leftSection={<IconDownload size={14} />}
            onClick={() => {
              setExportError(null);
              if (run) exportChanges(listId, run, all).catch((err: unknown) => setExportError(getErrorMessage(err)));
            }}
          >
            Download CSV
          </Button>
        </Group>
        {exportError ? <Alert color="red" variant="light">{exportError}</Alert> : null}
        {changes.isPending ? <Loader size="sm" /> : null}
        {changes.isError ? <Alert color="red" variant="light">{getErrorMessage(changes.error)}</Alert> : null}
        {changes.data && changes.data.rows.length === 0 ? <Text size="sm" c="dimmed">No row changed in this run.</Text> : null}
        {changes.data && changes.data.rows.length > 0 ? (
          <ScrollArea>
            <Table striped data-testid="run-changes">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Row</Table.Th>
                  <Table.Th>Email</Table.Th>
                  <Table.Th>Before</Table.Th>
                  <Table.Th>Now</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {changes.data.rows.map((r) => (
                  <Table.Tr key={r.row_number}>
                    <Table.Td>{r.row_number}</Table.Td>
                    <Table.Td>{r.email}</Table.Td>
                    <Table.Td>{status(r.previous_status)}</Table.Td>
                    <Table.Td>{status(r.status)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        ) : null}
        {pages > 1 ? <Pagination total={pages} value={page} onChange={setPage} size="sm" /> : null}
      </Stack>
    </Modal>
  );
}

/** The runs of a list kept verified, newest first, each with what it changed. */
export function ReverifyRuns({ listId, data }: { listId: string; data: TKeepVerifiedData }) {
  const [open, setOpen] = useState<TReverifyRun | null>(null);
  return (
    <Stack gap="xs">
      <Title order={5}>Runs</Title>
      {data.runs.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="runs-empty">
          {data.schedule === 'off' ? 'No run yet. Turn a schedule on to keep this list verified.' : `No run yet. The first is due ${formatDateTime(data.next_run_at)}.`}
        </Text>
      ) : (
        <ScrollArea>
          <Table data-testid="reverify-runs" miw={640}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>Run</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Re-checked</Table.Th>
                <Table.Th>Credits</Table.Th>
                <Table.Th>What changed</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.runs.map((run) => (
                <Table.Tr key={run.id}>
                  <Table.Td>{formatDateTime(run.finished_at ?? run.due_at)}</Table.Td>
                  <Table.Td>{run.kind === 'scheduled' ? 'Scheduled re-check' : 'New contacts'}</Table.Td>
                  <Table.Td>
                    <Badge color={STATE_COLOR[run.state]} variant="light" title={run.reason ?? undefined}>
                      {run.state}
                    </Badge>
                    {run.reason ? (
                      <Text size="xs" c="dimmed" maw={260}>
                        {run.reason}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>{formatNumber(run.rechecked)}</Table.Td>
                  <Table.Td>{formatNumber(run.charged)}</Table.Td>
                  <Table.Td>
                    <Transitions run={run} />
                  </Table.Td>
                  <Table.Td>
                    {run.rechecked > 0 ? (
                      <Button size="xs" variant="subtle" onClick={() => setOpen(run)}>
                        See changes
                      </Button>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
      <RunChangesModal key={open?.id ?? 'none'} listId={listId} run={open} onClose={() => setOpen(null)} />
    </Stack>
  );
}
