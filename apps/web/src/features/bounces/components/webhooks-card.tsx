import { useState } from 'react';
import { ActionIcon, Alert, Badge, Button, Card, Code, CopyButton, Group, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import type { TBounceWebhook, TBounceWebhookPlatform } from '@verilead/contracts';
import { ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { getErrorMessage } from '../../../lib/api-error';
import { formatDate, formatNumber } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import { useBounceWebhooks, useSetBounceWebhook } from '../api/bounces-api';

const PLATFORMS: { platform: TBounceWebhookPlatform; name: string; how: string }[] = [
  {
    platform: 'sendgrid',
    name: 'SendGrid',
    how: 'Settings → Mail Settings → Event Webhook: paste the address, tick Bounced, Dropped and Deferred. Turn on Signed Event Webhook and paste its verification key here so every post is checked.',
  },
  { platform: 'mailchimp', name: 'Mailchimp', how: 'Audience → Settings → Webhooks: paste the address and tick “Cleaned address” (Mailchimp cleans hard-bounced addresses).' },
];

function WebhookRow({ name, how, platform, hook }: { name: string; how: string; platform: TBounceWebhookPlatform; hook: TBounceWebhook | undefined }) {
  const set = useSetBounceWebhook();
  const [key, setKey] = useState('');
  // The address is stored hashed: it is shown once, as the create or rotate call answers it.
  const [shownUrl, setShownUrl] = useState<string | null>(null);
  const save = (body: Parameters<typeof set.mutate>[0], done: string) =>
    set.mutate(body, {
      onSuccess: (saved) => {
        if (saved.url) setShownUrl(saved.url);
        showToast({ kind: 'success', title: 'Saved', message: done });
      },
      onError: (e) => showToast({ kind: 'error', title: 'Not saved', message: getErrorMessage(e) }),
    });
  return (
    <Stack gap={6} data-testid={`bounce-webhook-${platform}`}>
      <Group justify="space-between" wrap="wrap">
        <Group gap="xs">
          <Text fw={600}>{name}</Text>
          {hook ? <Badge variant="light">{formatNumber(hook.events)} events</Badge> : null}
          {hook && platform === 'sendgrid' ? <Badge color={hook.signed ? 'green' : 'gray'} variant="light">{hook.signed ? 'Signed' : 'Not signed'}</Badge> : null}
        </Group>
        {hook ? (
          <Button size="xs" variant="subtle" color="red" loading={set.isPending} onClick={() => save({ platform, rotate: true }, 'New address made; the old one stops working')}>
            New address
          </Button>
        ) : (
          <Button size="xs" loading={set.isPending} onClick={() => save({ platform }, `${name} webhook created`)}>
            Create webhook
          </Button>
        )}
      </Group>
      <Text size="sm" c="dimmed">
        {how}
      </Text>
      {shownUrl ? (
        <Stack gap={4}>
          <Alert color="orange" variant="light" p="xs">
            Copy the address now and paste it in {name}: it is shown only once.
          </Alert>
          <Group gap={4} wrap="nowrap">
            <Code style={{ overflowWrap: 'anywhere' }}>{shownUrl}</Code>
            <CopyButton value={shownUrl}>
              {({ copied, copy }) => (
                <Tooltip label={copied ? 'Copied' : 'Copy'}>
                  <ActionIcon variant="subtle" onClick={copy} aria-label={`Copy the ${name} webhook address`}>
                    {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                  </ActionIcon>
                </Tooltip>
              )}
            </CopyButton>
          </Group>
        </Stack>
      ) : hook ? (
        <Text size="sm" c="dimmed">
          Created {formatDate(hook.created_at)}. Its address is stored hashed and cannot be shown again: make a new address to see one (the old one stops working).
        </Text>
      ) : null}
      {hook && platform === 'sendgrid' ? (
        <Group align="flex-end" wrap="wrap">
          <TextInput label="Verification key" placeholder="MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE…" value={key} onChange={(e) => setKey(e.currentTarget.value)} style={{ flex: 1, minWidth: 220 }} />
          <Button variant="light" disabled={!key.trim()} loading={set.isPending} onClick={() => save({ platform, verification_key: key }, 'Verification key saved')}>
            Save key
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}

/** The ESPs' bounce webhooks: their figures, a new address (shown once), SendGrid's verification key. */
export function WebhooksCard() {
  const hooks = useBounceWebhooks();
  return (
    <Card>
      <Title order={4} fz={16} mb={4}>
        Connected ESPs
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        Bounces your ESP reports arrive by themselves and count like an uploaded report.
      </Text>
      {hooks.isPending ? <LoadingScreen minHeight={80} /> : null}
      {hooks.isError ? <ErrorState error={hooks.error} onRetry={() => void hooks.refetch()} /> : null}
      {hooks.data ? (
        <Stack gap="lg">
          {PLATFORMS.map((p) => (
            <WebhookRow key={p.platform} {...p} hook={hooks.data.items.find((h) => h.platform === p.platform)} />
          ))}
        </Stack>
      ) : null}
    </Card>
  );
}
