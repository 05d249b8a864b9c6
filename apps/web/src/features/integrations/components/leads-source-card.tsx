import { useState } from 'react';
import { Alert, Button, Card, Group, Select, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { LoadingScreen } from '../../../components/loading-screen';
import { ErrorState } from '../../../components/state-views';
import { getErrorMessage } from '../../../lib/api-error';
import { showToast } from '../../../lib/toast';
import { useLeadsSources, useVerifyLeads } from '../api/integrations-api';

/** The `leads` source: verify the revealed e-mails of one of your prospect lists (no account needed). */
export function LeadsSourceCard() {
  const lists = useLeadsSources();
  const verify = useVerifyLeads();
  const [listId, setListId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const start = async () => {
    if (!listId) {
      setError('Please choose a prospect list');
      return;
    }
    setError(null);
    try {
      const r = await verify.mutateAsync({ list_id: listId });
      showToast({ title: 'Import started', message: `"${r.remote_list_name}" is being imported and verified`, kind: 'success' });
      setListId(null);
    } catch (err) {
      setError(getErrorMessage(err));
    }
  };
  return (
    <Card data-testid="leads-source">
      <Stack gap="sm">
        <Title order={4}>Verify a prospect list</Title>
        <Text size="sm" c="dimmed">
          The revealed e-mails of a prospect list become a verifier list (source: Leads); each lead then shows its verdict.
        </Text>
        {lists.isPending ? (
          <LoadingScreen minHeight={80} />
        ) : lists.isError ? (
          <ErrorState error={lists.error} onRetry={() => void lists.refetch()} />
        ) : lists.data.items.length === 0 ? (
          <Text size="sm">
            You have no prospect lists yet. <Link to="/prospect">Find prospects</Link> and add them to a list first.
          </Text>
        ) : (
          <Group align="flex-end">
            <Select
              label="Prospect list"
              placeholder="Choose a list"
              w={360}
              data={lists.data.items.map((l) => ({ value: l.id, label: `${l.name} (${l.email_count} e-mails)`, disabled: l.email_count === 0 }))}
              value={listId}
              onChange={(v) => {
                setListId(v);
                setError(null);
              }}
              error={error}
            />
            <Button onClick={() => void start()} loading={verify.isPending}>
              Import and verify
            </Button>
          </Group>
        )}
        {error && lists.isSuccess && lists.data.items.length === 0 ? (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        ) : null}
      </Stack>
    </Card>
  );
}
