import { ActionIcon, Code, CopyButton, Group, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

/** A value in a code box with a copy button. */
export function CopyField({ value, label, testId, block }: { value: string; label: string; testId?: string; block?: boolean }) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Code block={block} style={{ flex: 1, fontSize: 13, wordBreak: 'break-all', whiteSpace: block ? 'pre-wrap' : undefined }} data-testid={testId}>
        {value}
      </Code>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : label} withArrow>
            <ActionIcon size="lg" variant="light" color={copied ? 'teal' : 'indigo'} onClick={copy} aria-label={label}>
              {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}
