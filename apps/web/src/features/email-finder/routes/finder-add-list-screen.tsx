import { useState } from 'react';
import { Alert, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import {
  BULK_FILE_SIZE_LIMIT_BYTES,
  detectFinderColumns,
  FINDER_COLUMN_ROLES,
  isDomainLike,
  listFinderMappingProblems,
  ZFinderList,
  type TFinderColumnRole,
  type TFinderMapping,
} from '@verilead/contracts';
import { BulkListUploadForm, useBulkListUpload } from '../../../components/bulk-list-upload';
import { FilePreviewTable, getPreviewColumnLabels } from '../../../components/file-preview-table';
import { PageHeader } from '../../../components/page-header';
import type { TBulkFileKind } from '../../../lib/bulk-file-rules';
import { formatNumber } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import { uploadBulkFile } from '../../../lib/upload-bulk-file';
import { checkFinderDuplicate, finderQueryKeys } from '../api/email-finder-api';
import { assignFinderColumn, FINDER_ROLE_LABELS, getMappingTags, toFinderUploadFields } from '../utils/finder-columns';

/** The finder takes CSV and XLSX files. */
const FINDER_FILE_KINDS: readonly TBulkFileKind[] = ['csv', 'xlsx'];

function detectColumns(rows: string[][]) {
  const guess = detectFinderColumns(rows);
  return { hasHeader: guess.hasHeader, columns: guess.mapping };
}

/** /email_finder/add_list: drop a CSV or XLSX file of people, map the name and domain columns, upload. */
export function FinderAddListScreen() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const state = useBulkListUpload<TFinderMapping>({
    kinds: FINDER_FILE_KINDS,
    checkDuplicate: checkFinderDuplicate,
    emptyFileHint: 'Choose a file with at least one person.',
    detectColumns,
  });
  const [clickRole, setClickRole] = useState<TFinderColumnRole>('first_name');
  const { chosen } = state;
  const problems = chosen ? listFinderMappingProblems(chosen.columns) : [];

  const upload = async () => {
    if (!chosen || problems.length > 0) return;
    await state.upload(async (file, listName, transfer) => {
      const list = await uploadBulkFile({
        path: '/email_finder/bulk_upload',
        schema: ZFinderList,
        file: file.file,
        fields: toFinderUploadFields(file.columns, listName, file.hasHeader),
        ...transfer,
      });
      void queryClient.invalidateQueries({ queryKey: finderQueryKeys.all });
      showToast({ title: 'List uploaded', message: `${list.name}: ${formatNumber(list.counts.searchable)} people ready to search.`, kind: 'success' });
      navigate(`/email_finder/lists/${list.id}`);
    });
  };

  const labels = chosen ? getPreviewColumnLabels(chosen.rows, chosen.hasHeader) : [];
  const columnOptions = labels.map((label, index) => ({ value: String(index), label: label === `Column ${index + 1}` ? label : `${label} (column ${index + 1})` }));
  const setRole = (role: TFinderColumnRole, index: number | null) => chosen && state.setColumns(assignFinderColumn(chosen.columns, role, index));

  return (
    <>
      <PageHeader title="Add List" description="Upload a CSV or XLSX file of people (name and company domain or name), up to 20 MB. Only found addresses are charged." />
      <BulkListUploadForm
        state={state}
        maw={1040}
        hint={`CSV or XLSX with first name, last name and domain (or company) columns, up to ${formatNumber(BULK_FILE_SIZE_LIMIT_BYTES)} bytes.`}
        howItWorks="1. Upload a file with one person per row. 2. Check the column mapping. 3. Find the addresses: only found addresses are charged. 4. Download the results as CSV or XLSX."
        canUpload={problems.length === 0}
        onUpload={() => void upload()}
        renderPreview={(file) => (
          <>
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
                    value={file.columns[role] === null ? null : String(file.columns[role])}
                    onChange={(value) => setRole(role, value === null ? null : Number(value))}
                    placeholder="Not in the file"
                    clearable
                    disabled={state.uploading}
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
              rows={file.rows}
              hasHeader={file.hasHeader}
              tags={getMappingTags(file.columns)}
              onColumn={(index) => setRole(clickRole, index)}
              isCellWrong={(index, value) => index === file.columns.domain && !isDomainLike(value)}
            />
          </>
        )}
      />
    </>
  );
}
