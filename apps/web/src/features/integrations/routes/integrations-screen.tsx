import { Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { INTEGRATION_CATALOG, INTEGRATIONS } from '@verilead/contracts';
import { PageHeader } from '../../../components/page-header';
import { IntegrationTestModeNotice } from '../components/test-mode-notice';

/** All integrations (everyone): what each platform does, and a way to connect or open it. */
export function IntegrationsScreen() {
  return (
    <>
      <PageHeader
        title="Integrations"
        description="Verify the contacts where they live: import a list from your platform, verify it, and write the results back."
        actions={
          <Button component={Link} to="/integrations/connected_accounts" variant="default">
            Connected accounts
          </Button>
        }
      />
      <Stack gap="md">
        <IntegrationTestModeNotice />
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {INTEGRATIONS.map((key) => {
            const info = INTEGRATION_CATALOG[key];
            return (
              <Card key={key} data-testid={`integration-${key}`}>
                <Stack gap="xs" h="100%" justify="space-between">
                  <Stack gap={4}>
                    <Group justify="space-between">
                      <Title order={4} fz={17}>
                        {info.label}
                      </Title>
                      {info.available ? null : (
                        <Badge color="gray" variant="light">
                          Unavailable
                        </Badge>
                      )}
                    </Group>
                    <Text size="sm">{info.description}</Text>
                    {info.unavailable_reason ? (
                      <Text size="xs" c="dimmed">
                        {info.unavailable_reason}
                      </Text>
                    ) : null}
                  </Stack>
                  {info.available ? (
                    <Group gap="xs">
                      <Button size="xs" component={Link} to={`/integrations/${key}/connect`}>
                        Connect
                      </Button>
                      <Button size="xs" variant="default" component={Link} to={`/integrations/${key}`}>
                        Open
                      </Button>
                    </Group>
                  ) : null}
                </Stack>
              </Card>
            );
          })}
        </SimpleGrid>
      </Stack>
    </>
  );
}
