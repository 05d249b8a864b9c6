import { useEffect } from 'react';
import { Alert, Anchor, Breadcrumbs, Button, Card, Grid, Group, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconDownload, IconPlayerStop, IconTrash, IconUserSearch } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { CREDITS_PER_FIND, type TFinderList } from '@verilead/contracts';
import { LoadingScreen } from '../../../components/loading-screen';
import { ErrorState } from '../../../components/state-views';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { userQueryKeys } from '../../../lib/user-queries';
import { finderQueryKeys, useFinderList, useFinderProgress } from '../api/email-finder-api';
import { FinderListStateBadge } from '../components/finder-list-state-badge';
import { FinderResultChart, FinderStatCards } from '../components/finder-stats';
import { useFinderListActions } from '../components/use-finder-list-actions';
import { FINDER_ROLE_LABELS, FINDER_COLUMN_ROLES } from '../utils/finder-columns';
import { canCancelFinderList, canDownloadFinderList, canFindEmails } from '../utils/finder-list-rules';

function Count({ label, value, testId }: { label: string; value: number; testId: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fw={700} fz={20} data-testid={testId}>
        {formatNumber(value)}
      </Text>
    </Stack>
  );
}

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
    <Card padding="lg">
      <Group justify="space-between" mb="xs">
        <Text fw={600}>{running ? 'Finding addresses...' : list.state === 'processed' ? 'Search complete' : 'Search cancelled'}</Text>
        <Text fw={700} data-testid="search-percent">
          {value}%
        </Text>
      </Group>
      <Progress value={value} size="xl" radius="xl" color={list.state === 'cancelled' ? 'orange' : 'teal'} striped={running} animated={running} aria-label="Search progress" />
      <Text size="sm" c="dimmed" mt="xs">
        {formatNumber(processed)} of {formatNumber(total)} people searched · {formatNumber(found)} addresses found
      </Text>
    </Card>
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
      <Breadcrumbs mb="xs">
        <Anchor component={Link} to="/email_finder/lists" size="sm">
          Lists
        </Anchor>
        <Text size="sm" c="dimmed">
          {list.name}
        </Text>
      </Breadcrumbs>
      <Group justify="space-between" align="flex-end" mb="lg" wrap="wrap" gap="md">
        <Stack gap={4}>
          <Group gap="sm">
            <Title order={2} fz={26}>
              {list.name}
            </Title>
            <FinderListStateBadge list={list} />
          </Group>
          <Text size="sm" c="dimmed">
            {list.file_name} · uploaded {formatDateTime(list.created_at)}
            {list.processed_at ? ` · processed ${formatDateTime(list.processed_at)}` : ''}
          </Text>
          {mapped.length > 0 ? (
            <Text size="xs" c="dimmed" data-testid="list-mapping">
              {mapped.join(' · ')}
            </Text>
          ) : null}
        </Stack>
        <Group gap="sm">
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
        </Group>
      </Group>

      <Stack gap="lg">
        {list.stopped_reason ? (
          <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} title="The search stopped">
            {list.stopped_reason}
          </Alert>
        ) : null}
        <Card padding="lg">
          <SimpleGrid cols={{ base: 2, sm: 3, md: 5 }} spacing="lg">
            <Count label="Rows" value={list.counts.rows} testId="count-rows" />
            <Count label="Searchable" value={list.counts.searchable} testId="count-searchable" />
            <Count label="Skipped" value={list.counts.skipped} testId="count-skipped" />
            <Count label="Searched" value={list.counts.processed} testId="count-processed" />
            <Count label="Remaining" value={list.counts.remaining} testId="count-remaining" />
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
        </Card>
        <SearchProgress list={list} />
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, lg: 8 }}>
            <FinderStatCards stats={list.stats} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 4 }}>
            <FinderResultChart stats={list.stats} pending={list.counts.remaining} />
          </Grid.Col>
        </Grid>
      </Stack>
      {actions.dialogs}
    </>
  );
}
