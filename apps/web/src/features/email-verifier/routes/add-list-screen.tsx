import { useRef, useState } from 'react';
import { Alert, Button, Card, Checkbox, Group, Progress, Select, Stack, Text, TextInput, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconFileSpreadsheet, IconUpload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { BULK_FILE_SIZE_LIMIT_BYTES, ZVerifyList, type TCheckDuplicateData } from '@verilead/contracts';
import { FileDropZone } from '../../../components/file-drop-zone';
import { FilePreviewTable } from '../../../components/file-preview-table';
import { PageHeader } from '../../../components/page-header';
import { getErrorMessage } from '../../../lib/api-error';
import { BULK_FILE_KINDS, checkBulkFile, formatFileSize } from '../../../lib/bulk-file-rules';
import { readFilePreview } from '../../../lib/file-preview';
import { formatNumber } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import { uploadBulkFile, type TUploadProgress } from '../../../lib/upload-bulk-file';
import { checkDuplicateFileName, verifierQueryKeys } from '../api/email-verifier-api';
import { detectEmailColumn, isEmailLike } from '../utils/email-column';

type TChosen = {
  file: File;
  rows: string[][];
  hasHeader: boolean;
  emailColumn: number | null;
  duplicate: TCheckDuplicateData | null;
};

function stripExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return (dot > 0 ? name.slice(0, dot) : name).slice(0, 200);
}

/** /email_verifier/add_list: drop a CSV, XLSX or TXT file, check the preview and the e-mail column, upload. */
export function AddListScreen() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [refusal, setRefusal] = useState<string | null>(null);
  const [reading, setReading] = useState(false);
  const [chosen, setChosen] = useState<TChosen | null>(null);
  const [listName, setListName] = useState('');
  const [progress, setProgress] = useState<TUploadProgress | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const abortRef = useRef<AbortController | null>(null);
  const uploading = progress !== null;

  const choose = async (file: File) => {
    setChosen(null);
    setUploadError(null);
    const problem = checkBulkFile(file);
    setRefusal(problem);
    if (problem) return;
    setReading(true);
    try {
      const [preview, duplicate] = await Promise.all([
        readFilePreview(file),
        checkDuplicateFileName(file.name).catch(() => null),
      ]);
      if (preview.rows.length === 0) {
        setRefusal(`${file.name} has no rows. Choose a file with at least one e-mail address.`);
        return;
      }
      const guess = detectEmailColumn(preview.rows);
      setChosen({ file, rows: preview.rows, hasHeader: guess.hasHeader, emailColumn: guess.columnIndex, duplicate });
      setListName(stripExtension(file.name));
    } catch (error) {
      setRefusal(getErrorMessage(error));
    } finally {
      setReading(false);
    }
  };

  const upload = async () => {
    if (!chosen || chosen.emailColumn === null) return;
    setUploadError(null);
    setProgress({ loaded: 0, total: chosen.file.size, percent: 0 });
    const controller = new AbortController();
    abortRef.current = controller;
    try {
      const list = await uploadBulkFile({
        path: '/email_verify/bulk_upload',
        schema: ZVerifyList,
        file: chosen.file,
        fields: { list_name: listName.trim() || stripExtension(chosen.file.name), email_column: chosen.emailColumn, has_header: chosen.hasHeader ? 'true' : 'false' },
        onProgress: setProgress,
        signal: controller.signal,
      });
      void queryClient.invalidateQueries({ queryKey: verifierQueryKeys.all });
      showToast({ title: 'List uploaded', message: `${list.name} is being analysed.`, kind: 'success' });
      navigate(`/email_verifier/lists/${list.id}`);
    } catch (error) {
      if (!(error instanceof DOMException && error.name === 'AbortError')) setUploadError(getErrorMessage(error));
    } finally {
      abortRef.current = null;
      setProgress(null);
    }
  };

  const columnOptions = chosen
    ? Array.from({ length: chosen.rows.reduce((max, row) => Math.max(max, row.length), 0) }, (_, index) => {
        const name = chosen.hasHeader ? chosen.rows[0]?.[index]?.trim() : '';
        return { value: String(index), label: name ? `${name} (column ${index + 1})` : `Column ${index + 1}` };
      })
    : [];
  const emailsInPreview = chosen && chosen.emailColumn !== null ? (chosen.hasHeader ? chosen.rows.slice(1) : chosen.rows).filter((row) => isEmailLike(row[chosen.emailColumn ?? 0])).length : 0;

  return (
    <>
      <PageHeader title="Add List" description="Upload a CSV, XLSX or TXT file of up to 20 MB. Duplicates and syntax errors are counted before any credit is spent." />
      <Stack gap="lg" maw={980}>
        <FileDropZone
          kinds={BULK_FILE_KINDS}
          onFile={(file) => void choose(file)}
          disabled={uploading}
          loading={reading}
          hint={`CSV, XLSX or TXT (one address per line), up to ${formatNumber(BULK_FILE_SIZE_LIMIT_BYTES)} bytes.`}
        />

        {refusal ? (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="This file cannot be uploaded" role="alert" data-testid="file-refusal">
            {refusal}
          </Alert>
        ) : null}

        {chosen ? (
          <Card padding="lg">
            <Stack gap="md">
              <Group justify="space-between" wrap="wrap">
                <Group gap="sm" wrap="nowrap">
                  <ThemeIcon size={42} radius="md" variant="light" color="teal">
                    <IconFileSpreadsheet size={24} />
                  </ThemeIcon>
                  <Stack gap={0}>
                    <Text fw={600}>{chosen.file.name}</Text>
                    <Text size="xs" c="dimmed">
                      {formatFileSize(chosen.file.size)} · preview of the first {chosen.rows.length} rows
                    </Text>
                  </Stack>
                </Group>
                <Button variant="subtle" color="gray" onClick={() => setChosen(null)} disabled={uploading}>
                  Choose another file
                </Button>
              </Group>

              {chosen.duplicate?.is_duplicate ? (
                <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} title="A file with this name was uploaded before" data-testid="duplicate-warning">
                  {chosen.duplicate.message} You can still upload it as a new list.
                </Alert>
              ) : null}

              <Group align="flex-end" gap="md" wrap="wrap">
                <TextInput label="List name" value={listName} onChange={(event) => setListName(event.currentTarget.value)} maxLength={200} w={300} disabled={uploading} />
                <Select
                  label="E-mail column"
                  data={columnOptions}
                  value={chosen.emailColumn === null ? null : String(chosen.emailColumn)}
                  onChange={(value) => setChosen({ ...chosen, emailColumn: value === null ? null : Number(value) })}
                  placeholder="Choose the column"
                  allowDeselect={false}
                  w={280}
                  disabled={uploading}
                />
                <Checkbox
                  label="First row is a header"
                  checked={chosen.hasHeader}
                  onChange={(event) => setChosen({ ...chosen, hasHeader: event.currentTarget.checked })}
                  mb={8}
                  disabled={uploading}
                />
              </Group>

              {chosen.emailColumn === null ? (
                <Alert color="orange" variant="light" title="No e-mail column found">
                  No column of the preview holds e-mail addresses. Choose the column above, or check the file.
                </Alert>
              ) : (
                <Text size="sm" c="dimmed">
                  {emailsInPreview} of the {chosen.hasHeader ? chosen.rows.length - 1 : chosen.rows.length} preview rows hold an address in the chosen column. Click a column heading to change it.
                </Text>
              )}

              <FilePreviewTable
                rows={chosen.rows}
                hasHeader={chosen.hasHeader}
                tags={new Map(chosen.emailColumn === null ? [] : [[chosen.emailColumn, 'Email']])}
                onColumn={(index) => setChosen({ ...chosen, emailColumn: index })}
                isCellWrong={(_, value) => !isEmailLike(value)}
              />

              {uploadError ? (
                <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="Upload failed" role="alert">
                  {uploadError}
                </Alert>
              ) : null}

              {progress ? (
                <Stack gap={4}>
                  <Progress value={progress.percent} size="lg" radius="xl" striped animated aria-label="Upload progress" />
                  <Text size="xs" c="dimmed">
                    Uploading {formatFileSize(progress.loaded)} of {formatFileSize(progress.total)} ({progress.percent}%)
                  </Text>
                </Stack>
              ) : null}

              <Group justify="flex-end">
                {uploading ? (
                  <Button variant="default" onClick={() => abortRef.current?.abort()}>
                    Cancel upload
                  </Button>
                ) : null}
                <Button leftSection={<IconUpload size={18} />} onClick={() => void upload()} loading={uploading} disabled={chosen.emailColumn === null}>
                  Upload list
                </Button>
              </Group>
            </Stack>
          </Card>
        ) : null}

        {!chosen && !refusal ? (
          <Card padding="lg">
            <Title order={4} fz={15} mb={6}>
              How it works
            </Title>
            <Text size="sm" c="dimmed">
              1. Upload: the file is stored and analysed (rows, duplicates, syntax errors). 2. Review the counts and the credit cost. 3. Verify, then download the results in the format you need.
            </Text>
          </Card>
        ) : null}
      </Stack>
    </>
  );
}
