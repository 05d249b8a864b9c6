import { useState } from 'react';
import { Alert, Badge, Button, Card, Code, Group, ScrollArea, Stack, Table, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconPlayerPause, IconPlayerPlay } from '@tabler/icons-react';
import type { TOpsHostProcess, TOpsMailHost, TOpsPausedHost } from '@verilead/contracts';
import { EmptyState, ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { getErrorMessage } from '../../../lib/api-error';
import { formatDateTime, formatDuration } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import { useHostPause, useMailHosts } from '../api/infra-api';

/** Asks, then pauses or resumes a host for every process. */
function useConfirmedPause() {
  const change = useHostPause();
  const run = (action: 'pause' | 'resume', host: string, note?: string, onDone?: () => void) =>
    change.mutateAsync({ action, host, note }).then(
      () => {
        onDone?.();
        showToast({
          kind: 'success',
          title: action === 'pause' ? `${host} paused` : `${host} resumed`,
          message: action === 'pause' ? 'Its verifications wait until it is resumed (every process within a few seconds).' : 'Its waiting verifications go on now.',
        });
      },
      (error: unknown) => showToast({ kind: 'error', title: action === 'pause' ? 'Not paused' : 'Not resumed', message: getErrorMessage(error) }),
    );
  const confirm = (action: 'pause' | 'resume', host: string, note?: string, onDone?: () => void) =>
    modals.openConfirmModal({
      title: action === 'pause' ? `Pause ${host}?` : `Resume ${host}?`,
      children: (
        <Text size="sm">
          {action === 'pause'
            ? 'No new SMTP session or transaction goes to this host from any process. Verifications for it wait (bulk lists hold; an instant check waits up to its own time limit, then times out). Nothing is failed or answered unknown.'
            : 'Verifications waiting for this host go on at once in this process, and within a few seconds in the others.'}
        </Text>
      ),
      labels: { confirm: action === 'pause' ? 'Pause host' : 'Resume host', cancel: 'Cancel' },
      confirmProps: { color: action === 'pause' ? 'orange' : undefined },
      onConfirm: () => void run(action, host, note, onDone),
    });
  return { confirm, busy: change.isPending };
}

function PausedBanner({ paused, onResume, busy }: { paused: TOpsPausedHost[]; onResume: (host: string) => void; busy: boolean }) {
  if (paused.length === 0) return null;
  return (
    <Alert color="orange" variant="light" icon={<IconPlayerPause size={18} />} title={`${paused.length} mail host${paused.length === 1 ? '' : 's'} paused`} mb="lg" data-testid="paused-hosts">
      <Stack gap={6}>
        {paused.map((p) => (
          <Group key={p.host} justify="space-between" wrap="wrap" gap="xs" data-testid="paused-host" data-host={p.host}>
            <Text size="sm">
              <Code>{p.host}</Code> since {formatDateTime(p.paused_at)}
              {p.paused_by ? ` by ${p.paused_by}` : ''}
              {p.note ? ` — ${p.note}` : ''}
            </Text>
            <Button size="xs" variant="white" color="orange" leftSection={<IconPlayerPlay size={14} />} disabled={busy} onClick={() => onResume(p.host)}>
              Resume
            </Button>
          </Group>
        ))}
      </Stack>
    </Alert>
  );
}

function PauseForm({ onPause, busy }: { onPause: (host: string, note: string | undefined, onDone: () => void) => void; busy: boolean }) {
  const [host, setHost] = useState('');
  const [note, setNote] = useState('');
  return (
    <Group align="flex-end" gap="sm" wrap="wrap">
      <TextInput label="Mail host" description="An MX host name, an IP address or ip:port" placeholder="mx.example.com" value={host} onChange={(e) => setHost(e.currentTarget.value)} w={260} />
      <TextInput label="Note" description="Why (shown to other operators)" placeholder="Blocking us since 14:00" value={note} onChange={(e) => setNote(e.currentTarget.value)} w={260} />
      <Button leftSection={<IconPlayerPause size={16} />} color="orange" variant="light" disabled={busy || host.trim() === ''} onClick={() =>
          onPause(host.trim(), note.trim() || undefined, () => {
            setHost('');
            setNote('');
          })
        }
      >
        Pause host
      </Button>
    </Group>
  );
}

const lastReply = (h: TOpsMailHost) => h.recent_replies.at(-1)?.line ?? '—';

function HostRow({ h, pausedNames, onPause, onResume, busy }: { h: TOpsMailHost; pausedNames: Set<string>; onPause: (host: string) => void; onResume: (host: string) => void; busy: boolean }) {
  const name = h.exchange ?? h.host;
  const pausedAs = [h.host, h.host.slice(0, h.host.lastIndexOf(':')), h.exchange ?? ''].find((n) => pausedNames.has(n));
  return (
    <Table.Tr data-testid="mail-host" data-host={h.host} data-exchange={h.exchange ?? ''}>
      <Table.Td>
        <Text size="sm" fw={500}>
          {name}
        </Text>
        <Text size="xs" c="dimmed">
          {h.host}
        </Text>
      </Table.Td>
      <Table.Td>{h.paused || pausedAs ? <Badge color="orange">Paused</Badge> : h.down_until ? <Badge color="red">Down until {formatDateTime(h.down_until)}</Badge> : <Badge color="green" variant="light">Active</Badge>}</Table.Td>
      <Table.Td ta="right">
        {h.sessions_open} / {h.capacity}
        {h.sessions_opening > 0 ? ` (+${h.sessions_opening})` : ''}
      </Table.Td>
      <Table.Td ta="right">{h.learned_connections ?? '—'}</Table.Td>
      <Table.Td ta="right">
        {h.error_budget} / {h.non_mail_budget}
      </Table.Td>
      <Table.Td ta="right">{h.back_off_ms > 0 ? formatDuration(h.back_off_ms) : '—'}</Table.Td>
      <Table.Td ta="right">
        {h.refused_sessions} / {h.rate_limited} / {h.cut_sessions}
      </Table.Td>
      <Table.Td maw={320}>
        <Tooltip label={h.recent_replies.map((r) => `${formatDateTime(r.at)}  ${r.line}`).join('\n') || 'No reply yet'} multiline w={420} style={{ whiteSpace: 'pre-wrap' }}>
          <Text size="xs" ff="monospace" lineClamp={1}>
            {lastReply(h)}
          </Text>
        </Tooltip>
      </Table.Td>
      <Table.Td>
        {pausedAs ? (
          <Button size="xs" variant="light" leftSection={<IconPlayerPlay size={14} />} disabled={busy} onClick={() => onResume(pausedAs)}>
            Resume
          </Button>
        ) : (
          <Button size="xs" variant="subtle" color="orange" leftSection={<IconPlayerPause size={14} />} disabled={busy} onClick={() => onPause(h.exchange ?? h.host)}>
            Pause
          </Button>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

function ProcessHosts({ p, pausedNames, onPause, onResume, busy }: { p: TOpsHostProcess; pausedNames: Set<string>; onPause: (host: string) => void; onResume: (host: string) => void; busy: boolean }) {
  return (
    <Card mb="lg" data-testid="host-process" data-role={p.role}>
      <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
        <Title order={4} fz={16}>
          {p.this_process ? 'This process' : 'Process'} ({p.role === 'worker' ? 'worker' : p.role === 'all' ? 'API and worker' : 'API'}){' '}
          <Text span c="dimmed" size="sm">
            {p.hostname} · pid {p.pid}
          </Text>
        </Title>
        <Text size="xs" c={p.stale ? 'red' : 'dimmed'}>
          {p.this_process ? 'Read now' : `${p.stale ? 'Silent since' : 'Updated'} ${formatDateTime(p.updated_at)}`}
        </Text>
      </Group>
      {p.hosts.length === 0 ? (
        <EmptyState title="No mail host met yet" description="Hosts appear once this process has verified an address at them." />
      ) : (
        <ScrollArea type="auto">
          <Table miw={1040} aria-label={`Mail hosts of ${p.process_id}`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Host</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th ta="right">Sessions open / may hold</Table.Th>
                <Table.Th ta="right">Learned connections</Table.Th>
                <Table.Th ta="right">Error / non-mail budget</Table.Th>
                <Table.Th ta="right">Back-off</Table.Th>
                <Table.Th ta="right">Refused / rate-limited / cut</Table.Th>
                <Table.Th>Last reply</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {p.hosts.map((h) => (
                <HostRow key={h.host} h={h} pausedNames={pausedNames} onPause={onPause} onResume={onResume} busy={busy} />
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
    </Card>
  );
}

/** The verifier's view of the internet: every process's mail hosts, and pausing a host. */
export function MailHostsScreen() {
  const hosts = useMailHosts();
  const { confirm, busy } = useConfirmedPause();
  const onPause = (host: string, note?: string, onDone?: () => void) => confirm('pause', host, note, onDone);
  const onResume = (host: string) => confirm('resume', host);
  const pausedNames = new Set((hosts.data?.paused ?? []).map((p) => p.host));
  return (
    <>
      <Title order={2} mb="xs">
        Mail hosts
      </Title>
      <Text c="dimmed" size="sm" mb="md">
        What each process of the verifier has learned of the mail hosts it talks to: sessions, limits, back-off and their last replies. Pausing a host holds every process&apos;s verifications for it until it is resumed.
      </Text>
      {hosts.isPending ? <LoadingScreen minHeight={160} /> : null}
      {hosts.isError ? <ErrorState error={hosts.error} onRetry={() => void hosts.refetch()} /> : null}
      {hosts.data ? (
        <>
          <PausedBanner paused={hosts.data.paused} onResume={onResume} busy={busy} />
          <Card mb="lg">
            <PauseForm onPause={onPause} busy={busy} />
          </Card>
          {hosts.data.processes.map((p) => (
            <ProcessHosts key={p.process_id} p={p} pausedNames={pausedNames} onPause={onPause} onResume={onResume} busy={busy} />
          ))}
        </>
      ) : null}
    </>
  );
}
