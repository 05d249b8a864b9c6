import { useState } from 'react';
import { Alert, Button, Checkbox, Group, Modal, Progress, Radio, SegmentedControl, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconDownload } from '@tabler/icons-react';
import {
  DOWNLOAD_FORMAT_HINTS,
  DOWNLOAD_FORMAT_LABELS,
  STANDARD_RESULT_COLUMNS,
  ZDownloadFormat,
  ZResultColumn,
  type TDownloadFileType,
  type TDownloadFormat,
  type TResultColumn,
  type TVerifyList,
} from '@verilead/contracts';
import { usePreparedDownload } from '../../../components/use-prepared-download';
import { formatNumber, humanizeKey } from '../../../lib/format';
import { startListExport } from '../api/email-verifier-api';

const COLUMN_LABELS: Partial<Record<TResultColumn, string>> = {
  mx_record: 'MX record',
  smtp_provider: 'SMTP provider',
  ai_verdict: 'AI verdict',
  reason: 'Reason code',
  reason_text: 'Reason (text)',
  suggested_email_address: 'Suggested address',
};
/** Choose a format and file type, prepare the file (polling its status), then open it in a new window. */
export function ExportListModal({ list, onClose }: { list: TVerifyList | null; onClose: () => void }) {
  const [format, setFormat] = useState<TDownloadFormat>('standard');
  const [fileType, setFileType] = useState<TDownloadFileType>('csv');
  const [columns, setColumns] = useState<TResultColumn[]>(STANDARD_RESULT_COLUMNS);
  const prepared = usePreparedDownload();
  const { download, ready, busy, error } = prepared;

  const close = () => {
    prepared.reset();
    onClose();
  };

  const run = () => {
    if (!list) return;
    void prepared.run((signal) => startListExport({ list_id: list.id, kind: 'result', format, file_type: fileType, columns: format === 'custom' ? columns : undefined }, signal));
  };

  const toggleColumn = (column: TResultColumn, on: boolean) =>
    setColumns((current) => (on ? ZResultColumn.options.filter((item) => item === column || current.includes(item)) : current.filter((item) => item !== column)));

  return (
    <>
      <Modal opened={list !== null} onClose={close} title={list ? `Download results: ${list.name}` : 'Download results'} size="lg" centered>
        <Stack gap="md">
          <Radio.Group label="Format" value={format} onChange={(value) => setFormat(ZDownloadFormat.parse(value))}>
            <Stack gap="xs" mt="xs">
              {ZDownloadFormat.options.map((option) => (
                <Radio key={option} value={option} label={DOWNLOAD_FORMAT_LABELS[option]} description={DOWNLOAD_FORMAT_HINTS[option]} disabled={busy} />
              ))}
            </Stack>
          </Radio.Group>
          {format === 'custom' ? (
            <Stack gap={6}>
              <Text size="sm" fw={500}>
                Columns
              </Text>
              <SimpleGrid cols={{ base: 2, sm: 3 }} spacing={6}>
                {ZResultColumn.options.map((column) => (
                  <Checkbox
                    key={column}
                    size="xs"
                    label={COLUMN_LABELS[column] ?? humanizeKey(column)}
                    checked={columns.includes(column)}
                    onChange={(event) => toggleColumn(column, event.currentTarget.checked)}
                    disabled={busy}
                  />
                ))}
              </SimpleGrid>
            </Stack>
          ) : null}
          <Stack gap={6}>
            <Text size="sm" fw={500}>
              File type
            </Text>
            <SegmentedControl
              value={fileType}
              onChange={(value) => setFileType(value === 'xlsx' ? 'xlsx' : 'csv')}
              data={[
                { value: 'csv', label: 'CSV' },
                { value: 'xlsx', label: 'XLSX' },
              ]}
              w={200}
              disabled={busy}
              aria-label="File type"
            />
          </Stack>

          {download && !ready && !error ? (
            <Stack gap={4}>
              <Progress value={Math.max(download.progress ?? 0, 5)} striped animated aria-label="Export progress" />
              <Text size="xs" c="dimmed">
                Preparing the file... {download.progress ?? 0}%
              </Text>
            </Stack>
          ) : null}
          {ready ? (
            <Alert color="teal" variant="light" title="Your file is ready" icon={<IconDownload size={18} />}>
              <Group justify="space-between" wrap="wrap" gap="xs">
                <Text size="sm">
                  {ready.file_name}
                  {ready.rows !== null ? ` · ${formatNumber(ready.rows)} rows` : ''}
                </Text>
                <Button component="a" href={ready.download_url ?? undefined} download={ready.file_name} size="xs" variant="light" color="teal">
                  Download again
                </Button>
              </Group>
            </Alert>
          ) : null}
          {error ? (
            <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="The download could not be prepared" role="alert">
              {error}
            </Alert>
          ) : null}

          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {ready ? 'Close' : 'Cancel'}
            </Button>
            <Button leftSection={<IconDownload size={16} />} onClick={run} loading={busy} disabled={format === 'custom' && columns.length === 0}>
              Download
            </Button>
          </Group>
        </Stack>
      </Modal>
      {prepared.blockedModal}
    </>
  );
}
