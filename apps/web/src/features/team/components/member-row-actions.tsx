import { Button, Menu, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconChevronDown, IconPencil, IconPlayerPause, IconPlayerPlay, IconRestore, IconTrash } from '@tabler/icons-react';
import type { TMember } from '@verilead/contracts';
import { getErrorMessage } from '../../../lib/api-error';
import { showToast } from '../../../lib/toast';
import { useReactivateMember, useRemoveMember, useUpdateMemberStatus } from '../api/team-api';
import { getRemovalBlock } from '../utils/bulk-remove';

function showFailure(title: string, error: unknown): void {
  showToast({ title, message: getErrorMessage(error), kind: 'error' });
}

/** The "Manage" menu of one member row: edit, activate / deactivate, remove, reactivate. */
export function MemberRowActions({ member, onEdit }: { member: TMember; onEdit: (member: TMember) => void }) {
  const updateStatus = useUpdateMemberStatus();
  const reactivate = useReactivateMember();
  const remove = useRemoveMember();
  const busy = updateStatus.isPending || reactivate.isPending || remove.isPending;

  const setStatus = async (status: 'active' | 'inactive') => {
    try {
      const data = await updateStatus.mutateAsync({ member_id: member.member_id, status });
      showToast({
        title: data.message,
        message: status === 'active' ? `${member.email} can log in and spend credits again.` : `${member.email} can no longer log in or spend credits.`,
        kind: 'success',
      });
    } catch (error) {
      showFailure('Status not changed', error);
    }
  };

  const confirmRemove = () => {
    const block = getRemovalBlock(member);
    if (block) {
      showToast({ title: 'Not removed', message: block, kind: 'error' });
      return;
    }
    modals.openConfirmModal({
      title: 'Remove member',
      children: (
        <Text size="sm">
          Remove {member.name} ({member.email})? They can no longer log in, and their seat is freed. You can reactivate them later.
        </Text>
      ),
      labels: { confirm: 'Remove member', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => {
        remove.mutateAsync({ member_id: member.member_id }).then(
          (data) => showToast({ title: 'Member removed', message: data.message, kind: 'success' }),
          (error: unknown) => showFailure('Not removed', error),
        );
      },
    });
  };

  const doReactivate = async () => {
    try {
      const data = await reactivate.mutateAsync({ member_id: member.member_id });
      showToast({ title: data.message, message: `${member.email} is active again.`, kind: 'success' });
    } catch (error) {
      showFailure('Not reactivated', error);
    }
  };

  return (
    <Menu position="bottom-end" withinPortal shadow="md" width={220}>
      <Menu.Target>
        <Button variant="subtle" size="xs" rightSection={<IconChevronDown size={14} />} loading={busy}>
          Manage
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{member.email}</Menu.Label>
        {member.status !== 'removed' ? (
          <Menu.Item leftSection={<IconPencil size={16} />} onClick={() => onEdit(member)}>
            Edit role and limits
          </Menu.Item>
        ) : null}
        {member.status === 'active' && member.role !== 'owner' ? (
          <Menu.Item leftSection={<IconPlayerPause size={16} />} onClick={() => void setStatus('inactive')}>
            Deactivate
          </Menu.Item>
        ) : null}
        {member.status === 'inactive' ? (
          <Menu.Item leftSection={<IconPlayerPlay size={16} />} onClick={() => void setStatus('active')}>
            Activate
          </Menu.Item>
        ) : null}
        {member.status === 'removed' ? (
          <Menu.Item leftSection={<IconRestore size={16} />} onClick={() => void doReactivate()}>
            Reactivate
          </Menu.Item>
        ) : (
          <>
            <Menu.Divider />
            <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={confirmRemove}>
              Remove
            </Menu.Item>
          </>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
