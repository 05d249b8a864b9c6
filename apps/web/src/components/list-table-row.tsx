import type { ComponentType, ReactNode } from 'react';
import { ActionIcon, Anchor, Button, Group, Menu, Progress, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconDots, IconDownload, IconPlayerStop, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';

/** A person in a table cell: the name in bold above the e-mail address, dimmed. */
export function NameAndEmail({ name, email }: { name: string; email: string }) {
  return (
    <>
      <Text size="sm" fw={600}>
        {name}
      </Text>
      <Text size="xs" c="dimmed">
        {email}
      </Text>
    </>
  );
}

/** The first cell of an uploaded-list row: the list's name linking to its page, and its file name. */
export function ListNameCell({ detailPath, name, fileName }: { detailPath: string; name: string; fileName: string }) {
  return (
    <Table.Td maw={280}>
      <Anchor component={Link} to={detailPath} fw={600} size="sm" style={{ display: 'block' }} truncate>
        {name}
      </Anchor>
      <Text size="xs" c="dimmed" truncate>
        {fileName}
      </Text>
    </Table.Td>
  );
}

/**
 * The state cell of an uploaded-list row: its badge, a progress bar while the job runs (`progress` null otherwise),
 * and an optional note under them (e.g. addresses waiting for a re-check).
 */
export function ListStateCell({ badge, progress, progressLabel, note }: { badge: ReactNode; progress: number | null; progressLabel: string; note?: ReactNode }) {
  return (
    <Table.Td data-label="State">
      <Stack gap={4}>
        {badge}
        {progress !== null ? <Progress value={progress} size="sm" w={90} aria-label={progressLabel} /> : null}
        {note ?? null}
      </Stack>
    </Table.Td>
  );
}

type TRowAction = { enabled: boolean; onClick: () => void };

/**
 * The actions cell of an uploaded-list row: start the job, cancel it, fetch the results, and a menu with
 * open, the same actions and remove.
 */
export function ListRowActionsCell({
  name,
  detailPath,
  start,
  cancel,
  fetch,
  remove,
}: {
  name: string;
  detailPath: string;
  start: TRowAction & { label: string; menuLabel: string; icon: ComponentType<{ size?: number }> };
  cancel: TRowAction;
  /** Download (finder) or Export (verifier) of the results. */
  fetch: TRowAction & { label: string };
  remove: { disabled?: boolean; onClick: () => void };
}) {
  const StartIcon = start.icon;
  return (
    <Table.Td>
      <Group gap={4} justify="flex-end" wrap="nowrap">
        {start.enabled ? (
          <Button size="compact-sm" leftSection={<StartIcon size={14} />} onClick={start.onClick}>
            {start.label}
          </Button>
        ) : null}
        {cancel.enabled ? (
          <Button size="compact-sm" color="red" variant="light" leftSection={<IconPlayerStop size={14} />} onClick={cancel.onClick}>
            Cancel
          </Button>
        ) : null}
        {fetch.enabled && !start.enabled ? (
          <Tooltip label="Download results" withArrow>
            <ActionIcon variant="light" onClick={fetch.onClick} aria-label={`${fetch.label} ${name}`}>
              <IconDownload size={16} />
            </ActionIcon>
          </Tooltip>
        ) : null}
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon variant="subtle" color="gray" aria-label={`More actions for ${name}`}>
              <IconDots size={16} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item component={Link} to={detailPath}>
              Open
            </Menu.Item>
            <Menu.Item leftSection={<StartIcon size={14} />} disabled={!start.enabled} onClick={start.onClick}>
              {start.menuLabel}
            </Menu.Item>
            <Menu.Item leftSection={<IconPlayerStop size={14} />} disabled={!cancel.enabled} onClick={cancel.onClick}>
              Cancel
            </Menu.Item>
            <Menu.Item leftSection={<IconDownload size={14} />} disabled={!fetch.enabled} onClick={fetch.onClick}>
              {fetch.label}
            </Menu.Item>
            <Menu.Divider />
            <Menu.Item color="red" leftSection={<IconTrash size={14} />} disabled={remove.disabled} onClick={remove.onClick}>
              Remove
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
    </Table.Td>
  );
}
