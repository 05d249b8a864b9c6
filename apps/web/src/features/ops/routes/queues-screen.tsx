import { useState } from 'react';
import { Badge, Button, Card, Code, Group, ScrollArea, Select, Table, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconRefresh, IconTrash } from '@tabler/icons-react';
import { OPS_JOB_QUEUES, type TOpsFailedJob, type TOpsJobAction } from '@verilead/contracts';
import { EmptyState, ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { PagedTable, usePaging } from '../../../components/paged-table-footer';
import { getErrorMessage } from '../../../lib/api-error';
import { formatDateTime, formatDuration, formatNumber } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import { useFailedJobs, useJobAction, useQueueFigures } from '../api/infra-api';

/** Per queue: depth, oldest waiting job, running and finished counts (refreshed every 5 s). */
function QueueTable() {
  const figures = useQueueFigures();
  if (figures.isPending) return <LoadingScreen minHeight={120} />;
  if (figures.isError) return <ErrorState error={figures.error} onRetry={() => void figures.refetch()} />;
  return (
    <ScrollArea type="auto">
      <Table miw={760} striped aria-label="Job queues">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Queue</Table.Th>
            <Table.Th ta="right">Waiting</Table.Th>
            <Table.Th ta="right">Oldest waiting</Table.Th>
            <Table.Th ta="right">Delayed</Table.Th>
            <Table.Th ta="right">Running</Table.Th>
            <Table.Th ta="right">Completed (1 h)</Table.Th>
            <Table.Th ta="right">Failed (1 h)</Table.Th>
            <Table.Th ta="right">Failed (kept)</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {figures.data.queues.map((q) => (
            <Table.Tr key={q.queue} data-testid="queue-row" data-queue={q.queue}>
              <Table.Td>
                <Code>{q.queue}</Code>
              </Table.Td>
              <Table.Td ta="right">{formatNumber(q.waiting)}</Table.Td>
              <Table.Td ta="right">{q.oldest_waiting_seconds === null ? '—' : formatDuration(q.oldest_waiting_seconds * 1000)}</Table.Td>
              <Table.Td ta="right">{formatNumber(q.delayed)}</Table.Td>
              <Table.Td ta="right">{formatNumber(q.running)}</Table.Td>
              <Table.Td ta="right">{formatNumber(q.completed_last_hour)}</Table.Td>
              <Table.Td ta="right">{formatNumber(q.failed_last_hour)}</Table.Td>
              <Table.Td ta="right">
                {q.failed > 0 ? (
                  <Badge color="red" variant="light">
                    {formatNumber(q.failed)}
                  </Badge>
                ) : (
                  '0'
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}

/** Asks before a retry or a discard, then does it and says what happened. */
function useConfirmedJobAction() {
  const act = useJobAction();
  const confirm = (job: TOpsFailedJob, action: 'retry' | 'discard') => {
    const retry = action === 'retry';
    modals.openConfirmModal({
      title: retry ? 'Retry this job?' : 'Discard this job?',
      children: (
        <Text size="sm">
          {retry
            ? `The ${job.kind} job goes back to the ${job.queue} queue and runs again (one more attempt).`
            : `The ${job.kind} job is deleted from the ${job.queue} queue and never runs again. This cannot be undone.`}
          {job.org_name ? ` It belongs to ${job.org_name}, whose audit log records this.` : ''}
        </Text>
      ),
      labels: { confirm: retry ? 'Retry job' : 'Discard job', cancel: 'Cancel' },
      confirmProps: { color: retry ? undefined : 'red' },
      onConfirm: () => {
        act.mutateAsync({ action, queue: job.queue as TOpsJobAction['queue'], id: job.id }).then(
          () => showToast({ kind: 'success', title: retry ? 'Job retried' : 'Job discarded', message: `${job.kind} (${job.id.slice(0, 8)})` }),
          (error: unknown) => showToast({ kind: 'error', title: retry ? 'Not retried' : 'Not discarded', message: getErrorMessage(error) }),
        );
      },
    });
  };
  return { confirm, busy: act.isPending };
}

/** Failed jobs with their error, newest first; retry or discard each (with confirmation). */
function FailedJobs() {
  const { page, limit, setPage, changeLimit } = usePaging();
  const [queue, setQueue] = useState<string | null>(null);
  const failed = useFailedJobs({ page, limit, queue: queue ?? undefined });
  const { confirm, busy } = useConfirmedJobAction();
  return (
    <>
      <Group justify="space-between" mb="md" wrap="wrap" gap="sm">
        <Title order={4} fz={16}>
          Failed jobs
        </Title>
        <Select
          aria-label="Queue"
          placeholder="All queues"
          data={[...OPS_JOB_QUEUES]}
          value={queue}
          onChange={(value) => {
            setQueue(value);
            setPage(1);
          }}
          clearable
          w={200}
        />
      </Group>
      {failed.isPending ? <LoadingScreen minHeight={120} /> : null}
      {failed.isError ? <ErrorState error={failed.error} onRetry={() => void failed.refetch()} /> : null}
      {failed.data && failed.data.total === 0 ? <EmptyState title="No failed jobs" description={queue ? `Nothing failed in the ${queue} queue.` : 'Every job finished or is still running.'} /> : null}
      {failed.data && failed.data.total > 0 ? (
        <PagedTable
          label="Failed jobs"
          minWidth={900}
          head={
            <>
              <Table.Th>Failed</Table.Th>
              <Table.Th>Job</Table.Th>
              <Table.Th>Organisation</Table.Th>
              <Table.Th>Error</Table.Th>
              <Table.Th />
            </>
          }
          page={page}
          limit={limit}
          total={failed.data.total}
          onPageChange={setPage}
          onLimitChange={changeLimit}
        >
          {failed.data.items.map((job) => (
            <Table.Tr key={job.id} data-testid="failed-job" data-job-id={job.id}>
              <Table.Td>
                <Text size="sm">{formatDateTime(job.failed_at ?? job.created_at)}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" fw={500}>
                  {job.kind}
                </Text>
                <Text size="xs" c="dimmed">
                  {job.queue} · {job.attempts} attempt{job.attempts === 1 ? '' : 's'}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{job.org_name ?? '—'}</Text>
              </Table.Td>
              <Table.Td maw={380}>
                <Text size="sm" c="red.8" lineClamp={3} title={job.error}>
                  {job.error}
                </Text>
              </Table.Td>
              <Table.Td>
                <Group gap={6} wrap="nowrap" justify="flex-end">
                  <Button size="xs" variant="light" leftSection={<IconRefresh size={14} />} disabled={busy} onClick={() => confirm(job, 'retry')}>
                    Retry
                  </Button>
                  <Button size="xs" variant="subtle" color="red" leftSection={<IconTrash size={14} />} disabled={busy} onClick={() => confirm(job, 'discard')}>
                    Discard
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </PagedTable>
      ) : null}
    </>
  );
}

/** The job queues screen of the operator console. */
export function QueuesScreen() {
  return (
    <>
      <Title order={2} mb="xs">
        Job queues
      </Title>
      <Text c="dimmed" size="sm" mb="md">
        Whether the workers keep up: jobs waiting per queue and how long the oldest has waited. Failed jobs can be retried or discarded; every action is recorded.
      </Text>
      <Card mb="lg">
        <QueueTable />
      </Card>
      <Card>
        <FailedJobs />
      </Card>
    </>
  );
}
