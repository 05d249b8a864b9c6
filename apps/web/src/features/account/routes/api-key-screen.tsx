import { useState } from 'react';
import { Alert, Badge, Button, Card, Code, CopyButton, Group, Modal, Stack, Text, Title, Tooltip, ActionIcon } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy, IconKey, IconRefresh } from '@tabler/icons-react';
import type { TApiKeyData } from '@verilead/contracts';
import { ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { PageHeader } from '../../../components/page-header';
import { getErrorMessage } from '../../../lib/api-error';
import { formatDateTime } from '../../../lib/format';
import { useProfile } from '../../../lib/user-queries';
import { useGenerateApiKey } from '../api/account-api';

/** Generate or rotate the account's API key; the key is shown once with a copy button. */
export function ApiKeyScreen() {
  const profile = useProfile();
  const generate = useGenerateApiKey();
  const [confirmRotate, setConfirmRotate] = useState(false);
  const [created, setCreated] = useState<TApiKeyData | null>(null);

  if (profile.isPending) return <LoadingScreen />;
  if (profile.isError) return <ErrorState error={profile.error} onRetry={() => void profile.refetch()} />;
  const hasKey = profile.data.has_api_key || created !== null;

  const run = async () => {
    setConfirmRotate(false);
    setCreated(await generate.mutateAsync());
  };

  return (
    <>
      <PageHeader title="API Key" description="Authenticate calls to the Verilead API with a bearer token." />
      <Stack gap="lg">
        {created ? (
          <Card style={{ borderColor: 'var(--mantine-color-teal-4)' }}>
            <Stack gap="sm">
              <Group gap="xs">
                <IconCheck size={18} color="var(--mantine-color-teal-6)" />
                <Text fw={600}>{created.message}</Text>
              </Group>
              <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />}>
                Copy this key now. For your security it is shown only once; if you lose it, rotate it to get a new one.
              </Alert>
              <Group gap="xs" wrap="nowrap">
                <Code block style={{ flex: 1, fontSize: 14 }} data-testid="api-key-value">
                  {created.api_key}
                </Code>
                <CopyButton value={created.api_key}>
                  {({ copied, copy }) => (
                    <Tooltip label={copied ? 'Copied' : 'Copy key'} withArrow>
                      <ActionIcon size="lg" variant="light" color={copied ? 'teal' : 'indigo'} onClick={copy} aria-label="Copy API key">
                        {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
                      </ActionIcon>
                    </Tooltip>
                  )}
                </CopyButton>
              </Group>
              <Text size="xs" c="dimmed">
                Created {formatDateTime(created.created_at)}
              </Text>
            </Stack>
          </Card>
        ) : null}

        <Card>
          <Group justify="space-between" wrap="wrap" gap="md">
            <Group gap="md" wrap="nowrap">
              <IconKey size={28} color="var(--mantine-color-indigo-6)" />
              <Stack gap={2}>
                <Group gap="xs">
                  <Title order={4} fz={16}>
                    Account API key
                  </Title>
                  {hasKey ? (
                    <Badge color="teal" variant="light">
                      Active
                    </Badge>
                  ) : (
                    <Badge color="gray" variant="light">
                      Not created
                    </Badge>
                  )}
                </Group>
                <Text size="sm" c="dimmed">
                  {hasKey
                    ? created
                      ? `Key prefix ${created.prefix}`
                      : 'A key exists. Rotating it creates a new key and stops the old one at once.'
                    : 'Create a key to call the API from your own systems.'}
                </Text>
              </Stack>
            </Group>
            {hasKey ? (
              <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={() => setConfirmRotate(true)} loading={generate.isPending}>
                Rotate key
              </Button>
            ) : (
              <Button leftSection={<IconKey size={16} />} onClick={() => void run()} loading={generate.isPending}>
                Generate API key
              </Button>
            )}
          </Group>
          {generate.isError ? (
            <Alert color="red" variant="light" mt="md" role="alert">
              {getErrorMessage(generate.error)}
            </Alert>
          ) : null}
        </Card>

        <Card>
          <Title order={4} fz={16} mb="xs">
            Using the key
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            Send the key as a bearer token with every request:
          </Text>
          <Code block>{`curl -H "Authorization: Bearer <your API key>" \\\n  ${window.location.origin}/api/v1/email_verify/getusercredits`}</Code>
        </Card>
      </Stack>

      <Modal opened={confirmRotate} onClose={() => setConfirmRotate(false)} title="Rotate API key?">
        <Stack gap="md">
          <Text size="sm">
            The current key stops working immediately. Every system using it must be updated with the new key.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirmRotate(false)}>
              Cancel
            </Button>
            <Button color="red" onClick={() => void run()}>
              Rotate key
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
