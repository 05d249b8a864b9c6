import { useCallback, useState } from 'react';
import { Button, Grid, Skeleton, Stack, Tabs } from '@mantine/core';
import { IconUserPlus, IconUsers, IconUsersGroup } from '@tabler/icons-react';
import type { TMember } from '@verilead/contracts';
import { PageHeader } from '../../../components/page-header';
import { useSessionStore } from '../../../lib/session-store';
import { useProfile } from '../../../lib/user-queries';
import { useMembers } from '../api/team-api';
import { AddMemberModal } from '../components/add-member-modal';
import { EditMemberModal } from '../components/edit-member-modal';
import { MembersPanel, type TMemberFilters } from '../components/members-panel';
import { OrganisationCard } from '../components/organisation-card';
import { SeatRequestModal } from '../components/seat-request-modal';
import { SeatsCard } from '../components/seats-card';
import { TeamsPanel } from '../components/teams-panel';

const INITIAL_FILTERS: TMemberFilters = { role: 'all', status: 'all', search: '', page: 1, limit: 25 };

/** /admin: members, seats, teams and the organisation's details (owners and Managers). */
export function MembersScreen() {
  const [filters, setFilters] = useState<TMemberFilters>(INITIAL_FILTERS);
  const [adding, setAdding] = useState(false);
  const [requestingSeats, setRequestingSeats] = useState(false);
  const [editing, setEditing] = useState<TMember | null>(null);
  const members = useMembers({
    role: filters.role,
    status: filters.status,
    search: filters.search || undefined,
    page: filters.page,
    limit: filters.limit,
  });
  useProfile();
  const organisation = useSessionStore((state) => state.organisation);
  const planName = useSessionStore((state) => state.current_plan?.name ?? null);
  const seats = members.data?.seats ?? null;
  const onFiltersChange = useCallback((next: TMemberFilters) => setFilters(next), []);
  const openSeatRequest = () => {
    setAdding(false);
    setRequestingSeats(true);
  };

  return (
    <>
      <PageHeader
        title="Members"
        description="Add Managers and Executives, share your credits and cap what each member spends."
        actions={
          // "Request more seats" is on the seats card, beside the count it changes (it was here too, twice on one screen).
          <Button leftSection={<IconUserPlus size={16} />} onClick={() => setAdding(true)} disabled={!seats}>
            Add member
          </Button>
        }
      />
      <Stack gap="lg">
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: 4 }}>
            {seats ? <SeatsCard seats={seats} onRequestSeats={openSeatRequest} /> : <Skeleton h={150} radius="lg" />}
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 8 }}>
            {organisation ? <OrganisationCard organisation={organisation} planName={planName} /> : <Skeleton h={150} radius="lg" />}
          </Grid.Col>
        </Grid>
        <Tabs defaultValue="members" keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="members" leftSection={<IconUsers size={16} />}>
              Members
            </Tabs.Tab>
            <Tabs.Tab value="teams" leftSection={<IconUsersGroup size={16} />}>
              Teams
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="members">
            <MembersPanel
              filters={filters}
              onFiltersChange={onFiltersChange}
              query={members}
              onAdd={() => setAdding(true)}
              onEdit={setEditing}
            />
          </Tabs.Panel>
          <Tabs.Panel value="teams">
            <TeamsPanel />
          </Tabs.Panel>
        </Tabs>
      </Stack>
      {seats ? <AddMemberModal opened={adding} seats={seats} onClose={() => setAdding(false)} onRequestSeats={openSeatRequest} /> : null}
      <SeatRequestModal opened={requestingSeats} seats={seats} onClose={() => setRequestingSeats(false)} />
      <EditMemberModal member={editing} onClose={() => setEditing(null)} />
    </>
  );
}
