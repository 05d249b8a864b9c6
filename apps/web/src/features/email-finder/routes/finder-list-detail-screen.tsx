import { useEffect } from 'react';
import { Alert, Button, Card, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconPlayerPause, IconDownload, IconPlayerStop, IconTrash, IconUserSearch } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { CREDITS_PER_FIND, type TFinderList } from '@verilead/contracts';
import { ListCount, ListDetailHeader, ListJobProgressCard, ListStatsRow } from '../../../components/list-detail-parts';
import { LoadingScreen } from '../../../components/loading-screen';
import { ErrorState } from '../../../components/state-views';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { userQueryKeys } from '../../../lib/user-queries';
import { finderQueryKeys, useFinderList, useFinderProgress } from '../api/email-finder-api';
import { FinderListStateBadge } from '../components/finder-list-state-badge';
import { FinderResultChart, FinderStatCards } from '../components/finder-stats';
import { useFinderListActions } from '../components/use-finder-list-actions';
import { FINDER_COLUMN_ROLES } from '@verilead/contracts';
import { FINDER_ROLE_LABELS } from '../utils/finder-columns';
import { canCancelFinderList, canDownloadFinderList, canFindEmails } from '../utils/finder-list-rules';

/** Live progress from bulk/progress_status while the search runs; the list is re-read when it ends. */
function SearchProgress({ list }: { list: TFinderList }) {
  const queryClient = useQueryClient();
  const running = list.state === 'in_progress';
  const status = useFinderProgress(list.id, running);
  const finished = status.data !== undefined && status.data.state !== 'in_progress';

  useEffect(() => {
    if (!finished) return;
    void queryClient.invalidateQueries({ queryKey: finderQueryKeys.list(list.id) });
    void queryClient.invalidateQueries({ queryKey: finderQueryKeys.lists });
    void queryClient.invalidateQueries({ queryKey: userQueryKeys.creditsAndLimits });
  }, [finished, list.id, queryClient]);

  if (!running && list.state === 'not_processed') return null;
  const value = list.state === 'processed' ? 100 : running ? (status.data?.progress ?? list.progress) : list.progress;
  const processed = running ? (status.data?.processed ?? list.counts.processed) : list.counts.processed;
  const total = status.data?.total ?? list.counts.searchable;
  const found = running ? (status.data?.stats.found ?? list.stats.found) : list.stats.found;
  return (
    <ListJobProgressCard
      title={running ? 'Finding addresses...' : list.state === 'processed' ? 'Search complete' : 'Search cancelled'}
      value={value}
      running={running}
      cancelled={list.state === 'cancelled'}
      percentTestId="search-percent"
      progressLabel="Search progress"
      summary={`${formatNumber(processed)} of ${formatNumber(total)} people searched · ${formatNumber(found)} addresses found`}
    />
  );
}

/** /email_finder/lists/:listId: counts, mapping, progress, finder metrics and chart of one list. */
export function FinderListDetailScreen() {
  const { listId = '' } = useParams();
  const navigate = useNavigate();
  const query = useFinderList(listId);
  const actions = useFinderListActions({ onRemoved: () => navigate('/email_finder/lists') });

  if (query.isPending) return <LoadingScreen />;
  if (query.isError) return <ErrorState error={query.error} title="Could not load this list" onRetry={() => void query.refetch()} />;
  const list = query.data;
  const mapped = FINDER_COLUMN_ROLES.filter((role) => list.mapping[role] !== null).map((role) => `${FINDER_ROLE_LABELS[role]}: column ${(list.mapping[role] ?? 0) + 1}`);

  return (
    <>
      <ListDetailHeader
        listsPath="/email_finder/lists"
        name={list.name}
        badge={<FinderListStateBadge list={list} />}
        actions={
          <>
            {canFindEmails(list) ? (
              <Button leftSection={<IconUserSearch size={16} />} onClick={() => actions.find(list)}>
                {list.state === 'cancelled' ? 'Resume search' : 'Find addresses'}
              </Button>
            ) : null}
            {canCancelFinderList(list) ? (
              <Button color="red" variant="light" leftSection={<IconPlayerStop size={16} />} onClick={() => actions.cancel(list)}>
                Cancel
              </Button>
            ) : null}
            {canDownloadFinderList(list) ? (
              <Button variant="light" leftSection={<IconDownload size={16} />} onClick={() => actions.download(list)}>
                Download
              </Button>
            ) : null}
            <Button variant="subtle" color="red" leftSection={<IconTrash size={16} />} onClick={() => actions.remove(list)} disabled={list.state === 'in_progress'}>
              Remove
            </Button>
          </>
        }
      >
        <Text size="sm" c="dimmed">
          {list.file_name} · uploaded {formatDateTime(list.created_at)}
          {list.processed_at ? ` · processed ${formatDateTime(list.processed_at)}` : ''}
        </Text>
        {mapped.length > 0 ? (
          <Text size="xs" c="dimmed" data-testid="list-mapping">
            {mapped.join(' · ')}
          </Text>
        ) : null}
      </ListDetailHeader>

      <Stack gap="lg">
        {list.activity === 'analyse' ? (
          <Alert color="blue" variant="light" title="Reading the file..." data-testid="list-reading">
            The rows are being read; the search can start in a moment.
          </Alert>
        ) : null}
        {list.paused_reason ? (
          <Alert color="yellow" variant="light" icon={<IconPlayerPause size={18} />} title="The search is paused" role="status" data-testid="list-paused">
            {list.paused_reason}
          </Alert>
        ) : null}
        {list.stopped_reason ? (
          <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} title="The search stopped">
            {list.stopped_reason}
          </Alert>
        ) : null}
        <Card padding="lg">
          <SimpleGrid cols={{ base: 2, sm: 3, md: 5 }} spacing="lg">
            <ListCount label="Rows" value={list.counts.rows} testId="count-rows" />
            <ListCount label="Searchable" value={list.counts.searchable} testId="count-searchable" />
            <ListCount label="Skipped" value={list.counts.skipped} testId="count-skipped" />
            <ListCount label="Searched" value={list.counts.processed} testId="count-processed" />
            <ListCount label="Remaining" value={list.counts.remaining} testId="count-remaining" />
          </SimpleGrid>
          {canFindEmails(list) ? (
            <Text size="sm" mt="md" data-testid="find-cost">
              Only found addresses are charged: at most <b>{formatNumber(list.counts.remaining * CREDITS_PER_FIND)}</b> credits for {formatNumber(list.counts.remaining)} people; people not found cost nothing.
            </Text>
          ) : null}
          {list.counts.skipped > 0 ? (
            <Text size="xs" c="dimmed" mt="xs">
              Skipped rows lack a usable name or domain; they are not searched and not charged.
            </Text>
          ) : null}
          {list.counts.duplicate > 0 ? (
            <Text size="xs" c="dimmed" mt="xs" data-testid="duplicate-note">
              {formatNumber(list.counts.duplicate)} {list.counts.duplicate === 1 ? 'row repeats' : 'rows repeat'} a person already in the list: searched once, charged once, and given the same result in the download.
            </Text>
          ) : null}
        </Card>
        <SearchProgress list={list} />
        <ListStatsRow cards={<FinderStatCards stats={list.stats} />} chart={<FinderResultChart stats={list.stats} pending={list.counts.remaining} />} />
      </Stack>
      {actions.dialogs}
    </>
  );
}
