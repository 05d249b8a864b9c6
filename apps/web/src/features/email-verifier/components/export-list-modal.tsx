import { useEffect, useState } from 'react';
import { Checkbox, Radio, SimpleGrid, Stack, Text } from '@mantine/core';
import { ErrorState } from '../../../components/state-views';
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
import { PrepareDownloadModal } from '../../../components/prepare-download-modal';
import { usePreparedDownload } from '../../../components/use-prepared-download';
import { humanizeKey } from '../../../lib/format';
import { startListExport, useListColumns } from '../api/email-verifier-api';

const COLUMN_LABELS: Partial<Record<TResultColumn, string>> = {
  mx_record: 'MX record',
  smtp_provider: 'SMTP provider',
  ai_verdict: 'AI verdict',
  reason: 'Reason code',
  reason_text: 'Reason (text)',
  suggested_email_address: 'Suggested address',
  catch_all_score: 'Catch-all score',
  catch_all_evidence: 'Catch-all evidence',
};
/** The result columns every format writes after the file's own columns (the address is already in the file's row). */
const DEFAULT_RESULT_COLUMNS = STANDARD_RESULT_COLUMNS.filter((column) => column !== 'email');

/** The uploaded file's columns as checkboxes (all kept until unchecked); answers the kept indexes in file order. */
function InputColumnsPicker({ listId, dropped, onToggle, disabled }: { listId: string; dropped: number[]; onToggle: (index: number, on: boolean) => void; disabled: boolean }) {
  const query = useListColumns(listId);
  if (query.isPending) return <Text size="sm">Loading...</Text>;
  if (query.isError) return <ErrorState error={query.error} title="Could not read the columns of your file" onRetry={() => void query.refetch()} />;
  return (
    <SimpleGrid cols={{ base: 2, sm: 3 }} spacing={6}>
      {query.data.columns.map((name, index) => (
        <Checkbox
          key={index}
          size="xs"
          label={name}
          checked={!dropped.includes(index)}
          onChange={(event) => onToggle(index, event.currentTarget.checked)}
          disabled={disabled}
        />
      ))}
    </SimpleGrid>
  );
}

/** Choose a format and file type, prepare the file (polling its status), then open it in a new window. Every format keeps the file's own columns first. */
export function ExportListModal({ list, onClose }: { list: TVerifyList | null; onClose: () => void }) {
  const [format, setFormat] = useState<TDownloadFormat>('standard');
  const [fileType, setFileType] = useState<TDownloadFileType>('csv');
  const [columns, setColumns] = useState<TResultColumn[]>(DEFAULT_RESULT_COLUMNS);
  const [dropped, setDropped] = useState<number[]>([]);
  const prepared = usePreparedDownload();
  const fileColumns = useListColumns(format === 'custom' && list ? list.id : null);
  const listId = list?.id;
  // The kept file columns are per list.
  useEffect(() => setDropped([]), [listId]);

  const run = () => {
    if (!list) return;
    const custom = format === 'custom';
    const inputColumns = custom && fileColumns.data ? fileColumns.data.columns.map((_, index) => index).filter((index) => !dropped.includes(index)) : undefined;
    void prepared.run((signal) =>
      startListExport({ list_id: list.id, kind: 'result', format, file_type: fileType, columns: custom ? columns : undefined, input_columns: inputColumns }, signal),
    );
  };

  const toggleInput = (index: number, on: boolean) => setDropped((current) => (on ? current.filter((item) => item !== index) : [...current, index]));

  const toggleColumn = (column: TResultColumn, on: boolean) =>
    setColumns((current) => (on ? ZResultColumn.options.filter((item) => item === column || current.includes(item)) : current.filter((item) => item !== column)));

  return (
    <PrepareDownloadModal
      prepared={prepared}
      opened={list !== null}
      onClose={onClose}
      title={list ? `Download results: ${list.name}` : 'Download results'}
      size="lg"
      fileType={fileType}
      onFileTypeChange={setFileType}
      progressLabel="Export progress"
      downloadDisabled={format === 'custom' && (columns.length === 0 || !fileColumns.data)}
      onDownload={run}
    >
      <Radio.Group label="Format" value={format} onChange={(value) => setFormat(ZDownloadFormat.parse(value))}>
        <Stack gap="xs" mt="xs">
          {ZDownloadFormat.options.map((option) => (
            <Radio key={option} value={option} label={DOWNLOAD_FORMAT_LABELS[option]} description={DOWNLOAD_FORMAT_HINTS[option]} disabled={prepared.busy} />
          ))}
        </Stack>
      </Radio.Group>
      {format === 'custom' && list ? (
        <Stack gap={6}>
          <Text size="sm" fw={500}>
            Columns of your file
          </Text>
          <InputColumnsPicker listId={list.id} dropped={dropped} onToggle={toggleInput} disabled={prepared.busy} />
          <Text size="sm" fw={500} mt="xs">
            Result columns
          </Text>
          <SimpleGrid cols={{ base: 2, sm: 3 }} spacing={6}>
            {ZResultColumn.options.map((column) => (
              <Checkbox
                key={column}
                size="xs"
                label={COLUMN_LABELS[column] ?? humanizeKey(column)}
                checked={columns.includes(column)}
                onChange={(event) => toggleColumn(column, event.currentTarget.checked)}
                disabled={prepared.busy}
              />
            ))}
          </SimpleGrid>
        </Stack>
      ) : null}
    </PrepareDownloadModal>
  );
}
