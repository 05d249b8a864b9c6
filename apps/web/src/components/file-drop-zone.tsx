import { Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { Dropzone, type FileRejection, type FileWithPath } from '@mantine/dropzone';
import { IconCloudUpload, IconUpload, IconX } from '@tabler/icons-react';
import { BULK_FILE_SIZE_LIMIT_BYTES } from '@verilead/contracts';
import { describeBulkFileKinds, getBulkFileAccept, type TBulkFileKind } from '../lib/bulk-file-rules';
import { formatNumber } from '../lib/format';

/**
 * The bulk-upload drop zone: one file, dropped or chosen. Rejected files are handed over too, so the
 * screen explains the refusal itself (size, type) with `checkBulkFile`.
 */
export function FileDropZone({
  kinds,
  onFile,
  disabled = false,
  loading = false,
  hint,
  inputLabel = 'Choose a list file',
}: {
  kinds: readonly TBulkFileKind[];
  onFile: (file: File) => void;
  disabled?: boolean;
  loading?: boolean;
  /** Second line under the title; defaults to the kinds and the size limit. */
  hint?: string;
  inputLabel?: string;
}) {
  const onDropAny = (files: FileWithPath[], rejections: FileRejection[]) => {
    const file = files[0] ?? rejections[0]?.file;
    if (file) onFile(file);
  };
  return (
    <Dropzone
      onDrop={() => undefined}
      onDropAny={onDropAny}
      accept={getBulkFileAccept(kinds)}
      multiple={false}
      disabled={disabled}
      loading={loading}
      radius="lg"
      p="xl"
      inputProps={{ 'aria-label': inputLabel }}
      style={{ borderWidth: 2, background: 'var(--mantine-color-body)' }}
    >
      <Group justify="center" gap="xl" mih={170} style={{ pointerEvents: 'none' }}>
        <Dropzone.Accept>
          <IconUpload size={52} color="var(--mantine-color-indigo-6)" stroke={1.5} />
        </Dropzone.Accept>
        <Dropzone.Reject>
          <IconX size={52} color="var(--mantine-color-red-6)" stroke={1.5} />
        </Dropzone.Reject>
        <Dropzone.Idle>
          <ThemeIcon size={72} radius="xl" variant="light" color="indigo">
            <IconCloudUpload size={40} stroke={1.5} />
          </ThemeIcon>
        </Dropzone.Idle>
        <Stack gap={4}>
          <Text size="lg" fw={600}>
            Drag your list here or click to choose a file
          </Text>
          <Text size="sm" c="dimmed">
            {hint ?? `${describeBulkFileKinds(kinds)}, up to ${formatNumber(BULK_FILE_SIZE_LIMIT_BYTES)} bytes.`}
          </Text>
        </Stack>
      </Group>
    </Dropzone>
  );
}
