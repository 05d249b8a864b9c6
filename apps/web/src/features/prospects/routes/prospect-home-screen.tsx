import { Link } from 'react-router';
import { Anchor, Button, Card, Group, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { PageHeader } from '../../../components/page-header';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { useProspectHome } from '../api/prospect-api';
import { optionLabel } from '../components/labels';

/** /prospect: running enrichments, requests, people recently added and recent activity. */
export function ProspectHomeScreen() {
  const home = useProspectHome();
  return (
    <>
      <PageHeader
        title="Prospect"
        description="Find and build ideal prospect lists."
        actions={
          <Group>
            <Button component={Link} to="/prospect/people_search">
              Search people
            </Button>
            <Button component={Link} to="/prospect/company_search" variant="default">
              Search companies
            </Button>
          </Group>
        }
      />
      {home.isPending ? (
        <LoadingScreen />
      ) : home.isError ? (
        <ErrorState error={home.error} onRetry={() => void home.refetch()} />
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <Card padding="md" withBorder>
            <Title order={4} mb="sm">
              In progress
            </Title>
            {home.data.inProgress.items.length === 0 ? (
              <Text size="sm" c="dimmed">
                No enrichment is running.
              </Text>
            ) : (
              <Stack>
                {home.data.inProgress.items.map((r) => (
                  <div key={r.request_id}>
                    <Text size="sm">{r.list_name ?? 'Chosen people'}</Text>
                    <Progress value={r.progress} aria-label={`Progress of ${r.list_name ?? 'enrichment'}`} />
                  </div>
                ))}
              </Stack>
            )}
          </Card>
          <Card padding="md" withBorder>
            <Title order={4} mb="sm">
              Requests
            </Title>
            {home.data.requests.items.length === 0 ? (
              <Text size="sm" c="dimmed">
                No enrichment yet. Reveal people from the search or enrich a list.
              </Text>
            ) : (
              <Stack gap={6}>
                {home.data.requests.items.slice(0, 8).map((r) => (
                  <Group key={r.request_id} justify="space-between">
                    <Text size="sm">
                      {r.list_name ?? `${r.total} chosen`} · {optionLabel(r.state)}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {r.emails_revealed} e-mails, {r.phones_revealed} phones, {formatNumber(r.credits_charged)} credits
                    </Text>
                  </Group>
                ))}
              </Stack>
            )}
          </Card>
          <Card padding="md" withBorder>
            <Title order={4} mb="sm">
              Recently added
            </Title>
            {home.data.recent.items.length === 0 ? (
              <Text size="sm" c="dimmed">
                Nobody added to a list yet.
              </Text>
            ) : (
              <Stack gap={6}>
                {home.data.recent.items.map((r) => (
                  <Group key={`${r.list_id}-${r.person.id}`} justify="space-between">
                    <Anchor component={Link} to={`/prospect/people/${r.person.id}`} size="sm">
                      {r.person.full_name}
                    </Anchor>
                    <Anchor component={Link} to={`/prospect/lists/${r.list_id}`} size="xs">
                      {r.list_name}
                    </Anchor>
                  </Group>
                ))}
              </Stack>
            )}
          </Card>
          <Card padding="md" withBorder>
            <Title order={4} mb="sm">
              Recent activity
            </Title>
            {home.data.activities.items.length === 0 ? (
              <Text size="sm" c="dimmed">
                No activity yet.
              </Text>
            ) : (
              <Stack gap={6}>
                {home.data.activities.items.map((a, i) => (
                  <Group key={i} justify="space-between">
                    <Text size="sm">{a.description}</Text>
                    <Text size="xs" c="dimmed">
                      {formatDateTime(a.created_at)}
                    </Text>
                  </Group>
                ))}
              </Stack>
            )}
          </Card>
        </SimpleGrid>
      )}
    </>
  );
}
