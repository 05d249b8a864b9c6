import { Link } from 'react-router';
import { Button, Card, Group, Stack, Text } from '@mantine/core';
import type { TProspectFilters } from '@verilead/contracts';
import { EmptyState, ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { PageHeader } from '../../../components/page-header';
import { getErrorMessage } from '../../../lib/api-error';
import { formatDateTime } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import { useRemoveSearch, useSavedSearches } from '../api/prospect-api';
import { countFilters, optionLabel } from '../components/labels';

function describe(f: TProspectFilters): string {
  return Object.entries(f)
    .filter(([k]) => k !== 'similar_titles')
    .map(([k, v]) => `${optionLabel(k)}: ${Array.isArray(v) ? v.map((x) => optionLabel(String(x))).join(', ') : String(v)}`)
    .join(' · ');
}

/** /prospect/saved_searches: apply or remove saved searches. */
export function SavedSearchesScreen() {
  const searches = useSavedSearches();
  const remove = useRemoveSearch();
  return (
    <>
      <PageHeader title="Saved Searches" description="Searches you saved, to run again in one click." />
      {searches.isPending ? (
        <LoadingScreen />
      ) : searches.isError ? (
        <ErrorState error={searches.error} onRetry={() => void searches.refetch()} />
      ) : searches.data.items.length === 0 ? (
        <EmptyState title="No saved searches yet" description="Set filters in People Search and choose Save search." />
      ) : (
        <Stack>
          {searches.data.items.map((s) => (
            <Card key={s.id} padding="md" withBorder data-testid="saved-search">
              <Group justify="space-between" wrap="nowrap">
                <Stack gap={2}>
                  <Text fw={600}>{s.name}</Text>
                  <Text size="sm" c="dimmed">
                    {countFilters(s.filters) ? describe(s.filters) : 'No filters'}
                  </Text>
                  <Text size="xs" c="dimmed">
                    Saved {formatDateTime(s.created_at)}
                  </Text>
                </Stack>
                <Group>
                  <Button component={Link} to={`/prospect/people_search?filters=${encodeURIComponent(JSON.stringify(s.filters))}`}>
                    Apply
                  </Button>
                  <Button
                    variant="subtle"
                    color="red"
                    onClick={() =>
                      remove.mutate(s.id, {
                        onSuccess: (d) => showToast({ title: 'Removed', message: d.message, kind: 'success' }),
                        onError: (e) => showToast({ title: 'Could not remove', message: getErrorMessage(e), kind: 'error' }),
                      })
                    }
                  >
                    Remove
                  </Button>
                </Group>
              </Group>
            </Card>
          ))}
        </Stack>
      )}
    </>
  );
}
