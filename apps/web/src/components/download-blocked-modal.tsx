import { Anchor, Button, Group, List, Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconDownload, IconExternalLink, IconWindowOff } from '@tabler/icons-react';
import { getPopupHelp } from '../lib/popup-download';

/** Spec section 8: the browser blocked the download pop-up; ask to allow pop-ups for this domain. */
export function DownloadBlockedModal({ url, fileName, onClose }: { url: string | null; fileName?: string; onClose: () => void }) {
  const host = window.location.hostname;
  const help = getPopupHelp(navigator.userAgent, host);
  return (
    <Modal opened={url !== null} onClose={onClose} title="Download Blocked" centered zIndex={1100}>
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <ThemeIcon color="orange" variant="light" size={40} radius="xl">
            <IconWindowOff size={22} />
          </ThemeIcon>
          <Text size="sm">
            Your browser blocked the window that downloads your file. Please allow pop-ups for <b>{host}</b> so downloads open
            automatically next time.
          </Text>
        </Group>
        <Stack gap={4}>
          <Text size="sm" fw={600}>
            {help.browser === 'Other' ? 'How to allow pop-ups' : `How to allow pop-ups in ${help.browser} on ${help.os}`}
          </Text>
          <List type="ordered" size="sm" spacing={4}>
            {help.steps.map((step) => (
              <List.Item key={step}>{step}</List.Item>
            ))}
          </List>
          {help.helpUrl ? (
            <Anchor href={help.helpUrl} target="_blank" rel="noreferrer noopener" size="sm">
              <Group gap={4} component="span">
                {help.browser} help on pop-ups <IconExternalLink size={14} />
              </Group>
            </Anchor>
          ) : null}
        </Stack>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
          {url ? (
            <Button component="a" href={url} download={fileName ?? true} leftSection={<IconDownload size={16} />} onClick={onClose}>
              Download file
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Modal>
  );
}
