import { useState } from 'react';
import { Button, Drawer, Group, MultiSelect, Stack, Table, TextInput, Title } from '@mantine/core';
import { IconUserMinus, IconUserPlus } from '@tabler/icons-react';
import { ZTeamName, type TTeam } from '@verilead/contracts';
import { PagedQueryTable, usePaging } from '../../../components/paged-table-footer';
import { NameAndEmail } from '../../../components/list-table-row';
import { getErrorMessage } from '../../../lib/api-error';
import { showToast } from '../../../lib/toast';
import { useEditTeam, useTeamMembers } from '../api/team-api';
import { MemberStatusBadge, RoleBadge } from './member-badges';
import { useMemberOptions } from './team-form-modal';

function RenameTeam({ team }: { team: TTeam }) {
  const edit = useEditTeam();
  const [name, setName] = useState(team.name);
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    const parsed = ZTeamName.safeParse(name);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Please enter a team name');
    setError(null);
    try {
      const data = await edit.mutateAsync({ team_id: team.id, name: parsed.data });
      showToast({ title: data.message, message: `The team is now called ${data.team.name}.`, kind: 'success' });
    } catch (failure) {
      setError(getErrorMessage(failure));
    }
  };
  return (
    <Group align="flex-start" gap="xs" wrap="nowrap">
      <TextInput label="Team name" value={name} onChange={(event) => setName(event.currentTarget.value)} error={error} style={{ flex: 1 }} />
      <Button mt={25} variant="default" onClick={() => void save()} loading={edit.isPending} disabled={name.trim() === team.name}>
        Rename
      </Button>
    </Group>
  );
}

function AddTeamMembers({ team, currentIds }: { team: TTeam; currentIds: ReadonlySet<string> }) {
  const edit = useEditTeam();
  const { options } = useMemberOptions();
  const [chosen, setChosen] = useState<string[]>([]);
  const add = async () => {
    try {
      const data = await edit.mutateAsync({ team_id: team.id, add_member_ids: chosen });
      showToast({ title: data.message, message: `${chosen.length} member(s) added to ${data.team.name}.`, kind: 'success' });
      setChosen([]);
    } catch (error) {
      showToast({ title: 'Members not added', message: getErrorMessage(error), kind: 'error' });
    }
  };
  return (
    <Group align="flex-end" gap="xs" wrap="nowrap">
      <MultiSelect
        label="Add members"
        placeholder="Choose members"
        data={options.filter((option) => !currentIds.has(option.value))}
        value={chosen}
        onChange={setChosen}
        searchable
        nothingFoundMessage="No member found"
        style={{ flex: 1 }}
      />
      <Button leftSection={<IconUserPlus size={16} />} onClick={() => void add()} loading={edit.isPending} disabled={chosen.length === 0}>
        Add
      </Button>
    </Group>
  );
}

function TeamDetails({ team }: { team: TTeam }) {
  const paging = usePaging();
  const members = useTeamMembers({ team_id: team.id, page: paging.page, limit: paging.limit });
  const edit = useEditTeam();
  const current = members.data?.team ?? team;
  const currentIds = new Set(members.data?.items.map((member) => member.member_id) ?? []);

  const removeFromTeam = async (memberId: string, email: string) => {
    try {
      const data = await edit.mutateAsync({ team_id: team.id, remove_member_ids: [memberId] });
      showToast({ title: data.message, message: `${email} left ${data.team.name}.`, kind: 'success' });
    } catch (error) {
      showToast({ title: 'Member not removed from the team', message: getErrorMessage(error), kind: 'error' });
    }
  };

  return (
    <Stack gap="lg">
      <RenameTeam team={current} />
      <AddTeamMembers team={current} currentIds={currentIds} />
      <Stack gap="xs">
        <Title order={5}>Members ({current.member_count})</Title>
        <PagedQueryTable
          query={members}
          paging={paging}
          loadingHeight={120}
          empty={{ title: 'No members in this team', description: 'Add members above; a member belongs to one team at a time.' }}
          label="Team members"
          verticalSpacing="xs"
          highlightOnHover={false}
          minWidth={520}
          head={
            <>
              <Table.Th>Member</Table.Th>
              <Table.Th>Role</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th />
            </>
          }
        >
          {(items) =>
            items.map((member) => (
              <Table.Tr key={member.member_id}>
                <Table.Td>
                  <NameAndEmail name={member.name} email={member.email} />
                </Table.Td>
                <Table.Td>
                  <RoleBadge role={member.role} />
                </Table.Td>
                <Table.Td>
                  <MemberStatusBadge member={member} />
                </Table.Td>
                <Table.Td ta="right">
                  <Button
                    variant="subtle"
                    color="red"
                    size="xs"
                    leftSection={<IconUserMinus size={14} />}
                    onClick={() => void removeFromTeam(member.member_id, member.email)}
                  >
                    Remove from team
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))
          }
        </PagedQueryTable>
      </Stack>
    </Stack>
  );
}

/** A team's members, rename, add and remove. */
export function TeamDrawer({ team, onClose }: { team: TTeam | null; onClose: () => void }) {
  return (
    <Drawer opened={team !== null} onClose={onClose} title="Edit team" position="right" size="xl" padding="lg">
      {team ? <TeamDetails key={team.id} team={team} /> : null}
    </Drawer>
  );
}
