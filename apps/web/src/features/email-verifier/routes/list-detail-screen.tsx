import { useEffect } from 'react';
import { Alert, Anchor, Button, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconPlayerPause, IconDownload, IconLoader2, IconPlayerStop, IconShieldCheck, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import type { TVerifyList } from '@verilead/contracts';
import { ErrorState } from '../../../components/state-views';
import { ListCount, ListDetailHeader, ListJobProgressCard, ListStatsRow } from '../../../components/list-detail-parts';
import { LoadingScreen } from '../../../components/loading-screen';
import { formatDateTime, formatNumber, humanizeKey } from '../../../lib/format';
import { userQueryKeys } from '../../../lib/user-queries';
import { useProgressStatus, useVerifyList } from '../api/email-verifier-api';
import { verifierQueryKeys } from '../api/verifier-query-keys';
import { ListResultChart, ListStatCards } from '../components/list-stats';
import { ListStateBadge } from '../components/list-state-badge';
import { AutoVerifyCard } from '../components/auto-verify-card';
import { KeepVerifiedCard } from '../components/keep-verified-card';
import { useListActions } from '../components/use-list-actions';
import { describeGreylistWait } from '../utils/greylist-wait';
import { canCancelList, canExportList, canVerifyList } from '../utils/list-actions-rules';

/** Live verification progress from bulk/progress_status while the job runs. */
function VerificationProgress({ list }: { list: TVerifyList }) {
  const queryClient = useQueryClient();
  const running = list.state === 'in_progress';
  const status = useProgressStatus(list.id, running);
  // While the job runs the live poll is the freshest source; once the list says it ended, the list's own counts are
  // (the last poll may be behind them).
  const live = running ? status.data : undefined;
  const progress = live?.progress ?? list.progress;
  const verified = live?.verified ?? list.counts.verified;
  const total = live?.total ?? list.counts.unique;
  const greylistWait = running ? describeGreylistWait(live?.greylist ?? list.greylist) : null;
  const finished = running && status.data !== undefined && status.data.state !== 'in_progress';

  // The poll saw the end before the list did: refresh the list (and with it, useRefreshWhenJobsEnd, the credits).
  useEffect(() => {
    if (!finished) return;
    void queryClient.invalidateQueries({ queryKey: verifierQueryKeys.list(list.id) });
    void queryClient.invalidateQueries({ queryKey: userQueryKeys.creditsAndLimits });
  }, [finished, list.id, queryClient]);

  if (!running && list.state !== 'verified' && list.state !== 'cancelled') return null;
  const value = list.state === 'verified' ? 100 : progress;
  return (
    <ListJobProgressCard
      title={running ? 'Verifying...' : list.state === 'verified' ? 'Verification complete' : 'Verification cancelled'}
      value={value}
      running={running}
      cancelled={list.state === 'cancelled'}
      percentTestId="verification-percent"
      progressLabel="Verification progress"
      summary={
        <>
          {`${formatNumber(verified)} of ${formatNumber(total)} unique addresses verified`}
          {greylistWait ? (
            <Text span display="block" size="sm" c="dimmed" data-testid="greylist-wait">
              {greylistWait}; the results so far are below.
            </Text>
          ) : null}
        </>
      }
    />
  );
}

/** The result stats: while the list runs, those of the live poll (the first results show while others wait). */
function ListResults({ list }: { list: TVerifyList }) {
  const running = list.state === 'in_progress';
  const status = useProgressStatus(list.id, running);
  const live = running ? status.data : undefined;
  const stats = live?.stats ?? list.stats;
  const pending = live ? Math.max(0, live.total - live.verified) : list.counts.remaining;
  return <ListStatsRow cards={<ListStatCards stats={stats} />} chart={<ListResultChart stats={stats} pending={pending} />} />;
}

/** /email_verifier/lists/:listId: counts, cost, progress, stats metrics and chart of one list. */
export function ListDetailScreen() {
  const { listId = '' } = useParams();
  const navigate = useNavigate();
  const query = useVerifyList(listId);
  const actions = useListActions({ onRemoved: () => navigate('/email_verifier/lists') });

  if (query.isPending) return <LoadingScreen />;
  if (query.isError) return <ErrorState error={query.error} title="Could not load this list" onRetry={() => void query.refetch()} />;
  const list = query.data;
  const analysing = list.analysis.state === 'pending' || list.analysis.state === 'processing';

  return (
    <>
      <ListDetailHeader
        listsPath="/email_verifier/lists"
        name={list.name}
        badge={<ListStateBadge list={list} />}
        actions={
          <>
            {canVerifyList(list) ? (
              <Button leftSection={<IconShieldCheck size={16} />} onClick={() => actions.verify(list)}>
                {list.state === 'cancelled' ? 'Resume verification' : 'Verify list'}
              </Button>
            ) : null}
            {canCancelList(list) ? (
              <Button color="red" variant="light" leftSection={<IconPlayerStop size={16} />} onClick={() => actions.cancel(list)}>
                Cancel verification
              </Button>
            ) : null}
            {canExportList(list) ? (
              <Button variant="light" leftSection={<IconDownload size={16} />} onClick={() => actions.exportList(list)}>
                Export
              </Button>
            ) : null}
            <Button variant="subtle" color="red" leftSection={<IconTrash size={16} />} onClick={() => actions.remove(list)}>
              Remove
            </Button>
          </>
        }
      >
        <Text size="sm" c="dimmed">
          {list.file_name} · source {humanizeKey(list.source)} · uploaded {formatDateTime(list.created_at)}
          {list.verified_at ? ` · verified ${formatDateTime(list.verified_at)}` : ''} ·{' '}
          <Anchor component={Link} to={`/input_download/${list.id}`} target="_blank" size="sm">
            original file
          </Anchor>
        </Text>
      </ListDetailHeader>

      <Stack gap="lg">
        {analysing ? (
          <Alert color="cyan" variant="light" icon={<IconLoader2 size={18} />} title="Analysing the file" role="status">
            Reading rows, removing duplicates and checking syntax. Nothing is charged for this step.
          </Alert>
        ) : null}
        {list.analysis.state === 'failed' ? (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="The file could not be analysed" role="alert">
            {list.analysis.error ?? 'The file could not be read.'}
          </Alert>
        ) : null}
        {list.paused_reason ? (
          <Alert color="yellow" variant="light" icon={<IconPlayerPause size={18} />} title="Verification paused" role="status" data-testid="list-paused">
            {list.paused_reason}
          </Alert>
        ) : null}
        {list.stopped_reason ? (
          <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} title="Verification stopped">
            {list.stopped_reason}
          </Alert>
        ) : null}

        <Card padding="lg">
          <SimpleGrid cols={{ base: 2, sm: 3, md: 6 }} spacing="lg">
            <ListCount label="Rows" value={list.counts.rows} testId="count-rows" />
            <ListCount label="Unique" value={list.counts.unique} testId="count-unique" />
            <ListCount label="Duplicates" value={list.counts.duplicate} testId="count-duplicate" />
            <ListCount label="Syntax errors" value={list.counts.syntax_error} testId="count-syntax-error" />
            <ListCount label="Verified" value={list.counts.verified} testId="count-verified" />
            <ListCount label="Remaining" value={list.counts.remaining} testId="count-remaining" />
          </SimpleGrid>
          {canVerifyList(list) ? (
            <Group mt="md" gap="xs">
              <Text size="sm">
                Verifying costs at most <b data-testid="list-credits-required">{formatNumber(list.cost.credits_required)}</b> credits for{' '}
                <b data-testid="list-billable-estimate">{formatNumber(list.cost.billable_estimate)}</b> billable addresses.
              </Text>
            </Group>
          ) : null}
        </Card>

        <VerificationProgress list={list} />

        <ListResults list={list} />

        <KeepVerifiedCard listId={list.id} />
        <AutoVerifyCard listId={list.id} fromPlatform={list.source !== 'upload'} />
      </Stack>
      {actions.dialogs}
    </>
  );
}
