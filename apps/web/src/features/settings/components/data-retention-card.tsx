import { useEffect, useState } from 'react';
import { Alert, Button, Card, Group, Select, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { FILE_RETENTION_DAYS, RESULT_RETENTION_DAYS, type TDataRetention } from '@verilead/contracts';
import { LoadingScreen } from '../../../components/loading-screen';
import { ErrorState } from '../../../components/state-views';
import { getErrorMessage } from '../../../lib/api-error';
import { showToast } from '../../../lib/toast';
import { useDataRetention, useDataRetentionUpdate } from '../api/privacy-api';

const daysOptions = (choices: readonly number[]) => choices.map((d) => ({ value: String(d), label: d === 1 ? '1 day' : `${d} days` }));

/** The owner's data retention: how long uploaded files and exports, and verification results, are kept. */
export function DataRetentionCard() {
  const retention = useDataRetention(true);
  const update = useDataRetentionUpdate();
  const [value, setValue] = useState<TDataRetention | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (retention.data) setValue(retention.data);
  }, [retention.data]);

  const dirty = !!value && !!retention.data && (value.file_retention_days !== retention.data.file_retention_days || value.result_retention_days !== retention.data.result_retention_days);
  const save = async () => {
    if (!value) return;
    setError(null);
    try {
      await update.mutateAsync({ file_retention_days: value.file_retention_days, result_retention_days: value.result_retention_days });
      showToast({ title: 'Retention saved', message: 'Older files and results are deleted at the next maintenance run.', kind: 'success' });
    } catch (cause) {
      setError(getErrorMessage(cause));
    }
  };

  return (
    <Card aria-labelledby="data-retention-title">
      <Stack gap="md">
        <Stack gap={2}>
          <Title order={4} fz={16} id="data-retention-title">
            Data retention
          </Title>
          <Text size="sm" c="dimmed">
            Uploaded files, prepared exports and verification results are deleted after these times. Totals stay in Analytics.
          </Text>
        </Stack>
        {retention.isPending ? <LoadingScreen /> : null}
        {retention.isError ? <ErrorState error={retention.error} onRetry={() => void retention.refetch()} /> : null}
        {error ? (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
            {error}
          </Alert>
        ) : null}
        {value ? (
          <>
            <Group grow align="flex-start" wrap="wrap">
              <Select
                label="Keep uploaded files and exports for"
                data={daysOptions(FILE_RETENTION_DAYS)}
                value={String(value.file_retention_days)}
                onChange={(v) => v && setValue({ ...value, file_retention_days: Number(v) })}
                allowDeselect={false}
                miw={220}
              />
              <Select
                label="Keep verification results for"
                data={daysOptions(RESULT_RETENTION_DAYS)}
                value={String(value.result_retention_days)}
                onChange={(v) => v && setValue({ ...value, result_retention_days: Number(v) })}
                allowDeselect={false}
                miw={220}
              />
            </Group>
            <Group>
              <Button onClick={() => void save()} loading={update.isPending} disabled={!dirty}>
                Save retention
              </Button>
            </Group>
          </>
        ) : null}
      </Stack>
    </Card>
  );
}
