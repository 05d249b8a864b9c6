import { useRef, useState } from 'react';
import { Alert, Button, Card, Checkbox, Group, Progress, Select, SimpleGrid, Stack, Text, TextInput, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconFileSpreadsheet, IconUpload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { BULK_FILE_SIZE_LIMIT_BYTES, ZFinderList, type TFinderCheckDuplicateData } from '@verilead/contracts';
import { FileDropZone } from '../../../components/file-drop-zone';
import { FilePreviewTable, getPreviewColumnLabels } from '../../../components/file-preview-table';
import { PageHeader } from '../../../components/page-header';
import { getErrorMessage } from '../../../lib/api-error';
import { checkBulkFile, formatFileSize, type TBulkFileKind } from '../../../lib/bulk-file-rules';
import { readFilePreview } from '../../../lib/file-preview';
import { formatNumber } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import { uploadBulkFile, type TUploadProgress } from '../../../lib/upload-bulk-file';
import { checkFinderDuplicate, finderQueryKeys } from '../api/email-finder-api';
import {
  assignFinderColumn,
  detectFinderColumns,
  FINDER_COLUMN_ROLES,
  FINDER_ROLE_LABELS,
  getMappingTags,
  listMappingProblems,
  toFinderUploadFields,
  type TFinderColumnRole,
  type TFinderMapping,
} from '../utils/finder-columns';
import { isDomainLike } from '../utils/finder-format';

/** The finder takes CSV and XLSX files. */
const FINDER_FILE_KINDS: readonly TBulkFileKind[] = ['csv', 'xlsx'];

type TChosen = { file: File; rows: string[][]; hasHeader: boolean; mapping: TFinderMapping; duplicate: TFinderCheckDuplicateData | null };

function stripExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return (dot > 0 ? name.slice(0, dot) : name).slice(0, 200);
}

/** /email_finder/add_list: drop a CSV or XLSX file of people, map the name and domain columns, upload. */
export function FinderAddListScreen() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [refusal, setRefusal] = useState<string | null>(null);
  const [reading, setReading] = useState(false);
  const [chosen, setChosen] = useState<TChosen | null>(null);
  const [listName, setListName] = useState('');
  const [progress, setProgress] = useState<TUploadProgress | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [clickRole, setClickRole] = useState<TFinderColumnRole>('first_name');
  const abortRef = useRef<AbortController | null>(null);
  const uploading = progress !== null;

  const choose = async (file: File) => {
    setChosen(null);
    setUploadError(null);
    const problem = checkBulkFile(file, FINDER_FILE_KINDS);
    setRefusal(problem);
    if (problem) return;
    setReading(true);
    try {
      const [preview, duplicate] = await Promise.all([readFilePreview(file), checkFinderDuplicate(file.name).catch(() => null)]);
      if (preview.rows.length === 0) {
        setRefusal(`${file.name} has no rows. Choose a file with at least one person.`);
        return;
      }
      const guess = detectFinderColumns(preview.rows);
      setChosen({ file, rows: preview.rows, hasHeader: guess.hasHeader, mapping: guess.mapping, duplicate });
      setListName(stripExtension(file.name));
    } catch (error) {
      setRefusal(getErrorMessage(error));
    } finally {
      setReading(false);
    }
  };

  const problems = chosen ? listMappingProblems(chosen.mapping) : [];

  const upload = async () => {
    if (!chosen || problems.length > 0) return;
    setUploadError(null);
    setProgress({ loaded: 0, total: chosen.file.size, percent: 0 });
    const controller = new AbortController();
    abortRef.current = controller;
    try {
      const list = await uploadBulkFile({
        path: '/email_finder/bulk_upload',
        schema: ZFinderList,
        file: chosen.file,
        fields: toFinderUploadFields(chosen.mapping, listName.trim() || stripExtension(chosen.file.name), chosen.hasHeader),
        onProgress: setProgress,
        signal: controller.signal,
      });
      void queryClient.invalidateQueries({ queryKey: finderQueryKeys.all });
      showToast({ title: 'List uploaded', message: `${list.name}: ${formatNumber(list.counts.searchable)} people ready to search.`, kind: 'success' });
      navigate(`/email_finder/lists/${list.id}`);
    } catch (error) {
      if (!(error instanceof DOMException && error.name === 'AbortError')) setUploadError(getErrorMessage(error));
    } finally {
      abortRef.current = null;
      setProgress(null);
    }
  };

  const labels = chosen ? getPreviewColumnLabels(chosen.rows, chosen.hasHeader) : [];
  const columnOptions = labels.map((label, index) => ({ value: String(index), label: label === `Column ${index + 1}` ? label : `${label} (column ${index + 1})` }));
  const setRole = (role: TFinderColumnRole, index: number | null) => chosen && setChosen({ ...chosen, mapping: assignFinderColumn(chosen.mapping, role, index) });

  return (
    <>
      <PageHeader title="Add List" description="Upload a CSV or XLSX file of people (name and company domain or name), up to 20 MB. Only found addresses are charged." />
      <Stack gap="lg" maw={1040}>
        <FileDropZone
          kinds={FINDER_FILE_KINDS}
          onFile={(file) => void choose(file)}
          disabled={uploading}
          loading={reading}
          hint={`CSV or XLSX with first name, last name and domain (or company) columns, up to ${formatNumber(BULK_FILE_SIZE_LIMIT_BYTES)} bytes.`}
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
                <Checkbox
                  label="First row is a header"
                  checked={chosen.hasHeader}
                  onChange={(event) => setChosen({ ...chosen, hasHeader: event.currentTarget.checked })}
                  mb={8}
                  disabled={uploading}
                />
              </Group>
              <Stack gap={6}>
                <Title order={4} fz={15}>
                  Column mapping
                </Title>
                <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }} spacing="sm">
                  {FINDER_COLUMN_ROLES.map((role) => (
                    <Select
                      key={role}
                      label={FINDER_ROLE_LABELS[role]}
                      data={columnOptions}
                      value={chosen.mapping[role] === null ? null : String(chosen.mapping[role])}
                      onChange={(value) => setRole(role, value === null ? null : Number(value))}
                      placeholder="Not in the file"
                      clearable
                      disabled={uploading}
                      onFocus={() => setClickRole(role)}
                    />
                  ))}
                </SimpleGrid>
                <Text size="xs" c="dimmed">
                  Map a first name and last name (or a full name), and a domain or company name. Clicking a column heading assigns it to {FINDER_ROLE_LABELS[clickRole]}.
                </Text>
              </Stack>
              {problems.length > 0 ? (
                <Alert color="orange" variant="light" title="Column mapping incomplete" data-testid="mapping-problems">
                  {problems.join(' ')}
                </Alert>
              ) : null}
              <FilePreviewTable
                rows={chosen.rows}
                hasHeader={chosen.hasHeader}
                tags={getMappingTags(chosen.mapping)}
                onColumn={(index) => setRole(clickRole, index)}
                isCellWrong={(index, value) => index === chosen.mapping.domain && !isDomainLike(value)}
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
                <Button leftSection={<IconUpload size={18} />} onClick={() => void upload()} loading={uploading} disabled={problems.length > 0}>
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
              1. Upload a file with one person per row. 2. Check the column mapping. 3. Find the addresses: only found addresses are charged. 4. Download the results as CSV or XLSX.
            </Text>
          </Card>
        ) : null}
      </Stack>
    </>
  );
}
