import { Alert, Select, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { BULK_FILE_SIZE_LIMIT_BYTES, ZVerifyList } from '@verilead/contracts';
import { BulkListUploadForm, useBulkListUpload } from '../../../components/bulk-list-upload';
import { FilePreviewTable } from '../../../components/file-preview-table';
import { PageHeader } from '../../../components/page-header';
import { formatNumber } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import { uploadBulkFile } from '../../../lib/upload-bulk-file';
import { checkDuplicateFileName } from '../api/email-verifier-api';
import { verifierQueryKeys } from '../api/verifier-query-keys';
import { detectEmailColumn, isEmailLike } from '@verilead/contracts';

function detectColumns(rows: string[][]) {
  const guess = detectEmailColumn(rows);
  return { hasHeader: guess.hasHeader, columns: guess.columnIndex };
}

/** /email_verifier/add_list: drop a CSV, XLSX or TXT file, check the preview and the e-mail column, upload. */
export function AddListScreen() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const state = useBulkListUpload<number | null>({
    checkDuplicate: checkDuplicateFileName,
    emptyFileHint: 'Choose a file with at least one e-mail address.',
    detectColumns,
  });
  const { chosen } = state;

  const upload = async () => {
    if (!chosen || chosen.columns === null) return;
    const emailColumn = chosen.columns;
    await state.upload(async (file, listName, transfer) => {
      const list = await uploadBulkFile({
        path: '/email_verify/bulk_upload',
        schema: ZVerifyList,
        file: file.file,
        fields: { list_name: listName, email_column: emailColumn, has_header: file.hasHeader ? 'true' : 'false' },
        ...transfer,
      });
      void queryClient.invalidateQueries({ queryKey: verifierQueryKeys.all });
      showToast({ title: 'List uploaded', message: `${list.name} is being analysed.`, kind: 'success' });
      navigate(`/email_verifier/lists/${list.id}`);
    });
  };

  const columnOptions = chosen
    ? Array.from({ length: chosen.rows.reduce((max, row) => Math.max(max, row.length), 0) }, (_, index) => {
        const name = chosen.hasHeader ? chosen.rows[0]?.[index]?.trim() : '';
        return { value: String(index), label: name ? `${name} (column ${index + 1})` : `Column ${index + 1}` };
      })
    : [];
  const emailsInPreview = chosen && chosen.columns !== null ? (chosen.hasHeader ? chosen.rows.slice(1) : chosen.rows).filter((row) => isEmailLike(row[chosen.columns ?? 0])).length : 0;

  return (
    <>
      <PageHeader title="Add List" description="Upload a CSV, XLSX or TXT file of up to 20 MB. Duplicates and syntax errors are counted before any credit is spent." />
      <BulkListUploadForm
        state={state}
        maw={980}
        hint={`CSV, XLSX or TXT (one address per line), up to ${formatNumber(BULK_FILE_SIZE_LIMIT_BYTES)} bytes.`}
        howItWorks="1. Upload: the file is stored and analysed (rows, duplicates, syntax errors). 2. Review the counts and the credit cost. 3. Verify, then download the results in the format you need."
        canUpload={chosen?.columns !== null}
        onUpload={() => void upload()}
        renderFields={(file) => (
          <Select
            label="E-mail column"
            data={columnOptions}
            value={file.columns === null ? null : String(file.columns)}
            onChange={(value) => state.setColumns(value === null ? null : Number(value))}
            placeholder="Choose the column"
            allowDeselect={false}
            w={280}
            disabled={state.uploading}
          />
        )}
        renderPreview={(file) => (
          <>
            {file.columns === null ? (
              <Alert color="orange" variant="light" title="No e-mail column found">
                No column of the preview holds e-mail addresses. Choose the column above, or check the file.
              </Alert>
            ) : (
              <Text size="sm" c="dimmed">
                {emailsInPreview} of the {file.hasHeader ? file.rows.length - 1 : file.rows.length} preview rows hold an address in the chosen column. Click a column heading to change it.
              </Text>
            )}
            <FilePreviewTable
              rows={file.rows}
              hasHeader={file.hasHeader}
              tags={new Map(file.columns === null ? [] : [[file.columns, 'Email']])}
              onColumn={(index) => state.setColumns(index)}
              isCellWrong={(_, value) => !isEmailLike(value)}
            />
          </>
        )}
      />
    </>
  );
}
