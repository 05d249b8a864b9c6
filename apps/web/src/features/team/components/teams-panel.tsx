import { useEffect, useState } from 'react';
import { Button, Card, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconSearch, IconUsersGroup, IconUsersPlus } from '@tabler/icons-react';
import type { TTeam } from '@verilead/contracts';
import { PagedQueryTable, usePaging } from '../../../components/paged-table-footer';
import { formatDate, formatNumber } from '../../../lib/format';
import { useTeams } from '../api/team-api';
import { TeamDrawer } from './team-drawer';
import { CreateTeamModal } from './team-form-modal';

/** Teams of the organisation: list, create, open one to see and change its members. */
export function TeamsPanel() {
  const paging = usePaging();
  const { page, limit, setPage } = paging;
  const [searchInput, setSearchInput] = useState('');
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const [openTeam, setOpenTeam] = useState<TTeam | null>(null);
  const teams = useTeams({ page, limit, search: search || undefined });

  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(searchInput.trim());
      setPage(1);
    }, 300);
    return () => clearTimeout(timer);
  }, [searchInput, setPage]);

  return (
    <Card>
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Stack gap={2}>
            <Title order={4} fz={16}>
              Teams
            </Title>
            <Text size="sm" c="dimmed">
              Group members to follow their usage together. A member belongs to one team.
            </Text>
          </Stack>
          <Group gap="sm">
            <TextInput
              aria-label="Search teams"
              placeholder="Search teams"
              leftSection={<IconSearch size={16} />}
              value={searchInput}
              onChange={(event) => setSearchInput(event.currentTarget.value)}
              w={220}
            />
            <Button leftSection={<IconUsersPlus size={16} />} onClick={() => setCreating(true)}>
              Create team
            </Button>
          </Group>
        </Group>
        <PagedQueryTable
          query={teams}
          paging={paging}
          loadingHeight={160}
          empty={{
            title: search ? 'No team matches' : 'No teams yet',
            description: search ? 'Try another name.' : 'Create a team, e.g. Sales or Marketing, and add members to it.',
          }}
          label="Teams"
          minWidth={560}
          head={
            <>
              <Table.Th>Team</Table.Th>
              <Table.Th>Members</Table.Th>
              <Table.Th>Created</Table.Th>
              <Table.Th />
            </>
          }
        >
          {(items) =>
            items.map((team) => (
              <Table.Tr key={team.id}>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <IconUsersGroup size={16} color="var(--mantine-color-indigo-6)" />
                    <Text size="sm" fw={600}>
                      {team.name}
                    </Text>
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{formatNumber(team.member_count)}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{formatDate(team.created_on)}</Text>
                </Table.Td>
                <Table.Td ta="right">
                  <Button variant="subtle" size="xs" onClick={() => setOpenTeam(team)}>
                    Edit team
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))
          }
        </PagedQueryTable>
      </Stack>
      <CreateTeamModal opened={creating} onClose={() => setCreating(false)} />
      <TeamDrawer team={openTeam} onClose={() => setOpenTeam(null)} />
    </Card>
  );
}
