import { ActionIcon, Alert, Card, Code, CopyButton, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';

/** A token shown once, with a copy button. */
export function TokenReveal({ token, title }: { token: string; title: string }) {
  return (
    <Card style={{ borderColor: 'var(--mantine-color-teal-4)' }} data-testid="token-reveal">
      <Stack gap="sm">
        <Text fw={600}>{title}</Text>
        <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />}>
          Copy this token now. It is shown only once; rotate it if you lose it.
        </Alert>
        <Group gap="xs" wrap="nowrap">
          <Code block style={{ flex: 1, fontSize: 14, wordBreak: 'break-all' }} data-testid="app-token-value">
            {token}
          </Code>
          <CopyButton value={token}>
            {({ copied, copy }) => (
              <Tooltip label={copied ? 'Copied' : 'Copy token'} withArrow>
                <ActionIcon size="lg" variant="light" color={copied ? 'teal' : 'indigo'} onClick={copy} aria-label="Copy token">
                  {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
                </ActionIcon>
              </Tooltip>
            )}
          </CopyButton>
        </Group>
      </Stack>
    </Card>
  );
}
