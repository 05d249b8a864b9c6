import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { Alert, Anchor, Button, Card, Group, Pagination, Progress, SegmentedControl, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconPlayerPause } from '@tabler/icons-react';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import type { TDownload, TDownloadFileType } from '@verilead/contracts';
import { EmptyState, ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { PageHeader } from '../../../components/page-header';
import { getErrorMessage } from '../../../lib/api-error';
import { getDownloadStatus, isDownloadFinal } from '../../../lib/download-status';
import { formatNumber } from '../../../lib/format';
import { pollWhile } from '../../../lib/poll-while';
import { showToast } from '../../../lib/toast';
import { PROSPECT_POLL_MS, useListDetails, useListLeads, useListMutations } from '../api/prospect-api';
import { optionLabel } from '../components/labels';
import { PersonContact } from '../components/person-contact';
import { EnrichConfirmModal } from '../components/enrich-confirm-modal';

/** A prepared export, polled (lib/poll-while.ts) until it is final. */
function useExportFile(start: TDownload | null) {
  const status = useQuery({
    queryKey: ['downloads', 'status', start?.queue_id ?? ''],
    queryFn: ({ signal }) => getDownloadStatus(start!.queue_id, signal),
    enabled: start !== null && !isDownloadFinal(start),
    initialData: start ?? undefined,
    // The export was just answered: the first poll comes after one interval, as every following one.
    initialDataUpdatedAt: () => Date.now(),
    staleTime: PROSPECT_POLL_MS,
    retry: false,
    refetchInterval: pollWhile((d: TDownload | undefined) => d !== undefined && !isDownloadFinal(d), PROSPECT_POLL_MS),
  });
  return start ? (status.data ?? start) : null;
}

/** /prospect/lists/:listId: the leads, enrichment with progress and cancel, and export. */
export function ProspectListDetailScreen() {
  const { listId = '' } = useParams();
  const details = useListDetails(listId);
  const [q, setQ] = useState('');
  const [debounced] = useDebouncedValue(q, 300);
  const [page, setPage] = useState(1);
  const enrichment = details.data?.enrichment;
  const leads = useListLeads(listId, debounced, page, `${enrichment?.state ?? ''}:${enrichment?.processed ?? 0}`);
  const m = useListMutations();
  const [fileType, setFileType] = useState<TDownloadFileType>('csv');
  const [started, setStarted] = useState<TDownload | null>(null);
  const file = useExportFile(started);
  const [confirming, setConfirming] = useState(false);

  if (details.isPending) return <LoadingScreen />;
  if (details.isError) return <ErrorState error={details.error} onRetry={() => void details.refetch()} />;
  const { list } = details.data;
  const running = enrichment && (enrichment.state === 'queued' || enrichment.state === 'in_progress');
  const fail = (title: string) => (e: unknown) => showToast({ title, message: getErrorMessage(e), kind: 'error' });

  return (
    <>
      <PageHeader
        title={list.name}
        description={`${formatNumber(list.lead_count)} people · ${optionLabel(list.state)} · ${details.data.revealed_emails} e-mail(s) and ${details.data.revealed_phones} phone(s) revealed`}
        actions={
          <Group>
            {running ? (
              <Button color="red" variant="light" onClick={() => m.enrich.mutate({ list_id: listId, cancel: true }, { onError: fail('Could not cancel') })} loading={m.enrich.isPending}>
                Cancel enrichment
              </Button>
            ) : (
              <Button onClick={() => setConfirming(true)} disabled={list.lead_count === 0}>
                Enrich list
              </Button>
            )}
          </Group>
        }
      />
      <EnrichConfirmModal
        opened={confirming}
        leads={list.lead_count}
        revealedEmails={details.data.revealed_emails}
        revealedPhones={details.data.revealed_phones}
        loading={m.enrich.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() => m.enrich.mutate({ list_id: listId }, { onError: fail('Could not start'), onSettled: () => setConfirming(false) })}
      />
      <Stack>
        {enrichment?.paused_reason ? (
          <Alert color="yellow" variant="light" icon={<IconPlayerPause size={18} />} title="Enrichment paused" role="status" data-testid="enrichment-paused">
            {enrichment.paused_reason}
          </Alert>
        ) : null}
        {enrichment ? (
          <Card padding="md" withBorder data-testid="enrichment">
            <Group justify="space-between" mb={6}>
              <Text size="sm" fw={500} data-testid="enrichment-state">
                Enrichment: {optionLabel(enrichment.state)}
              </Text>
              <Text size="sm">
                {`${formatNumber(enrichment.processed)} / ${formatNumber(enrichment.total)} people · `}
                <span data-testid="enrichment-charged">{`${formatNumber(enrichment.credits_charged)} credit${enrichment.credits_charged === 1 ? '' : 's'} charged`}</span>
                {` (${formatNumber(enrichment.emails_revealed)} e-mail${enrichment.emails_revealed === 1 ? '' : 's'}, ${formatNumber(enrichment.phones_revealed)} phone${enrichment.phones_revealed === 1 ? '' : 's'} revealed)`}
              </Text>
            </Group>
            <Progress value={enrichment.progress} aria-label="Enrichment progress" animated={!!running} />
            {enrichment.error ? (
              <Text size="sm" c="red" mt={6}>
                {enrichment.error}
              </Text>
            ) : null}
          </Card>
        ) : null}
        <Card padding="md" withBorder>
          <Group justify="space-between" mb="sm">
            <Text fw={600}>Export</Text>
            <Group>
              <SegmentedControl
                value={fileType}
                onChange={(v) => setFileType(v as TDownloadFileType)}
                data={[
                  { value: 'csv', label: 'CSV' },
                  { value: 'xlsx', label: 'XLSX' },
                ]}
              />
              <Button
                variant="default"
                loading={m.exportList.isPending || (!!file && !isDownloadFinal(file))}
                onClick={() => m.exportList.mutate({ list_id: listId, file_type: fileType }, { onSuccess: setStarted, onError: fail('Could not export') })}
              >
                Export
              </Button>
            </Group>
          </Group>
          {file?.state === 'success' && file.download_url ? (
            <Alert color="green" title="Your file is ready">
              <Anchor href={file.download_url} data-testid="export-link">
                Download {file.file_name}
              </Anchor>{' '}
              ({formatNumber(file.rows ?? 0)} rows; only revealed contact data is included)
            </Alert>
          ) : file && isDownloadFinal(file) ? (
            <Alert color="red">{file.error ?? 'The file could not be prepared'}</Alert>
          ) : file ? (
            <Text size="sm">Preparing the file...</Text>
          ) : null}
        </Card>
        <Card padding="md" withBorder>
          <TextInput placeholder="Search people in this list" aria-label="Search people in this list" value={q} onChange={(e) => setQ(e.currentTarget.value)} mb="sm" maw={320} />
          {leads.isPending ? (
            <LoadingScreen />
          ) : leads.isError ? (
            <ErrorState error={leads.error} onRetry={() => void leads.refetch()} />
          ) : leads.data.items.length === 0 ? (
            <EmptyState
              title={debounced ? 'Nobody matches' : 'This list is empty'}
              description="Add people from the search."
              action={
                <Button component={Link} to="/prospect/people_search">
                  Find people
                </Button>
              }
            />
          ) : (
            <Stack>
              <Table striped aria-label="Leads">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Company</Table.Th>
                    <Table.Th>Contact</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {leads.data.items.map((p) => (
                    <Table.Tr key={p.id} data-testid="lead-row">
                      <Table.Td>
                        <Anchor component={Link} to={`/prospect/people/${p.id}`}>
                          {p.full_name}
                        </Anchor>
                        <Text size="xs" c="dimmed">
                          {p.title}
                        </Text>
                      </Table.Td>
                      <Table.Td>{p.company?.name ?? '-'}</Table.Td>
                      <Table.Td>
                        <PersonContact person={p} />
                      </Table.Td>
                      <Table.Td ta="right">
                        <Button
                          size="xs"
                          variant="subtle"
                          color="red"
                          disabled={!!running}
                          onClick={() => m.removeLead.mutate({ list_id: listId, person_ids: [p.id] }, { onError: fail('Could not remove') })}
                        >
                          Remove
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
              <Pagination total={Math.max(1, Math.ceil(leads.data.total / 25))} value={page} onChange={setPage} />
            </Stack>
          )}
        </Card>
      </Stack>
    </>
  );
}
