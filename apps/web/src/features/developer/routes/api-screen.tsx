import { Alert, Badge, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { MCP_PATH, MCP_TOOL_NAMES, TEST_ADDRESSES } from '@verilead/contracts';
import { ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { PageHeader } from '../../../components/page-header';
import { getErrorMessage } from '../../../lib/api-error';
import { useCreateDefaultApp, useDefaultApp, usePublicApiBaseUrl, useRotateDefaultToken } from '../api/developer-api';
import { CopyField } from '../components/copy-field';

/** The developer API page: the default app's token, copy buttons and curl examples. */
export function DeveloperApiScreen() {
  const app = useDefaultApp();
  const rotate = useRotateDefaultToken();
  const serverBase = usePublicApiBaseUrl();
  if (app.isPending) return <LoadingScreen />;
  if (app.isError) return <ErrorState error={app.error} onRetry={() => void app.refetch()} />;
  const base = serverBase ?? `${window.location.origin}/v2`;
  if (!app.data) return <CreateTokenScreen base={base} />;
  const appId = app.data.id;
  const token = app.data.token ?? '<your token>';
  const examples = [
    ['Verify one address', `curl -X POST ${base}/email_verify/instant \\\n  -H "Authorization: Bearer ${token}" \\\n  -H "Content-Type: application/json" \\\n  -d '{"email": "valid@example.com", "timeout": 30000}'`],
    ['Credits', `curl ${base}/email_verify/getcredits \\\n  -H "Authorization: Bearer ${token}"`],
    ['Upload a list', `curl -X POST ${base}/email_verify/bulk \\\n  -H "Authorization: Bearer ${token}" \\\n  -F "file=@contacts.csv"`],
  ] as const;
  const mcpUrl = `${base.replace(/\/v2\/?$/, '')}${MCP_PATH}`;
  const mcpConfig = JSON.stringify({ mcpServers: { verilead: { url: mcpUrl, headers: { Authorization: `Bearer ${token}` } } } }, null, 2);
  return (
    <>
      <PageHeader title="API" description="Call the Verilead public API (Clearout-compatible, under /v2) with an app token." />
      <Stack gap="lg">
        <Card>
          <Group justify="space-between" mb="sm">
            <Group gap="xs">
              <Title order={4} fz={16}>
                Default token
              </Title>
              <Badge variant="light">{app.data.status_label}</Badge>
            </Group>
            <Button variant="default" size="xs" leftSection={<IconRefresh size={14} />} loading={rotate.isPending} onClick={() => void rotate.mutateAsync(appId)}>
              {app.data.token ? 'Rotate' : 'Show a new token'}
            </Button>
          </Group>
          {app.data.token ? (
            <Stack gap="xs">
              <Alert color="orange" variant="light">
                Copy the token now: it is shown only once.
              </Alert>
              <CopyField value={app.data.token} label="Copy token" testId="default-token" />
            </Stack>
          ) : (
            <Text size="sm" c="dimmed">
              The token starting <Text span ff="monospace">{app.data.token_hint}</Text> is stored hashed and cannot be shown again. Rotate it to get a new one (the old one stops at once).
            </Text>
          )}
          {rotate.isError ? (
            <Alert color="red" mt="sm">
              {getErrorMessage(rotate.error)}
            </Alert>
          ) : null}
          <Stack gap={4} mt="md">
            <Text size="sm" fw={500}>
              Base URL
            </Text>
            <CopyField value={base} label="Copy base URL" testId="api-base-url" />
          </Stack>
        </Card>
        <Card>
          <Title order={4} fz={16} mb="sm">
            Examples
          </Title>
          <Stack gap="md">
            {examples.map(([title, cmd]) => (
              <Stack key={title} gap={4}>
                <Text size="sm" fw={500}>
                  {title}
                </Text>
                <CopyField value={cmd} label={`Copy "${title}"`} block />
              </Stack>
            ))}
          </Stack>
        </Card>
        <Card>
          <Title order={4} fz={16} mb="xs">
            AI assistants (MCP)
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            Assistants and agents that speak the Model Context Protocol call Verilead at this URL (streamable HTTP) with the same token. Tools:{' '}
            {Object.values(MCP_TOOL_NAMES).join(', ')}. Each charges as the API does.
          </Text>
          <Stack gap="md">
            <CopyField value={mcpUrl} label="Copy MCP URL" testId="mcp-url" />
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                Client configuration
              </Text>
              <CopyField value={mcpConfig} label="Copy MCP client configuration" block />
            </Stack>
          </Stack>
        </Card>
        <Card>
          <Title order={4} fz={16} mb="xs">
            Test addresses
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            These addresses answer a fixed verdict and cost nothing: use them to try your integration.
          </Text>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Address</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Safe to send</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {TEST_ADDRESSES.map((a) => (
                <Table.Tr key={a.email}>
                  <Table.Td ff="monospace">{a.email}</Table.Td>
                  <Table.Td>{a.status}</Table.Td>
                  <Table.Td>{a.safe_to_send}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Card>
      </Stack>
    </>
  );
}

/** No default app yet: opening the page creates nothing; the person asks for a token. */
function CreateTokenScreen({ base }: { base: string }) {
  const create = useCreateDefaultApp();
  return (
    <>
      <PageHeader title="API" description="Call the Verilead public API (Clearout-compatible, under /v2) with an app token." />
      <Card maw={640}>
        <Stack gap="sm">
          <Title order={4} fz={16}>
            No API token yet
          </Title>
          <Text size="sm" c="dimmed">
            Create your token to call the API at <Text span ff="monospace">{base}</Text>. It is shown once; you can rotate it later.
          </Text>
          {create.isError ? <Alert color="red">{getErrorMessage(create.error)}</Alert> : null}
          <Group>
            <Button onClick={() => create.mutate()} loading={create.isPending}>
              Create my API token
            </Button>
          </Group>
        </Stack>
      </Card>
    </>
  );
}
