import { useState, type ReactNode } from 'react';
import { Avatar, Badge, Button, Card, Divider, Group, Modal, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconPencil } from '@tabler/icons-react';
import { ROLE_LABELS, type TAddress } from '@verilead/contracts';
import { ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { PageHeader } from '../../../components/page-header';
import { formatDate, formatNumber } from '../../../lib/format';
import { useProfile } from '../../../lib/user-queries';
import {
  EditAddressForm,
  EditEmailForm,
  EditNameForm,
  EditPasswordForm,
  EditPhoneForm,
  EditTimezoneForm,
} from '../components/profile-edit-forms';

type TField = 'name' | 'email' | 'phone' | 'address' | 'timezone' | 'password';

const EDIT_TITLES: Record<TField, string> = {
  name: 'Edit name',
  email: 'Change email',
  phone: 'Edit phone number',
  address: 'Edit address',
  timezone: 'Change timezone',
  password: 'Change password',
};

function getInitials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const first = parts[0]?.[0] ?? 'U';
  const last = parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? '') : '';
  return `${first}${last}`.toUpperCase();
}

function formatAddress(address: TAddress | null): string {
  if (!address) return '';
  return [address.line1, address.line2, address.city, address.state, address.postal_code, address.country]
    .filter((part) => part.trim().length > 0)
    .join(', ');
}

function FieldRow({ label, value, onEdit, extra }: { label: string; value: string; onEdit: () => void; extra?: ReactNode }) {
  return (
    <Group justify="space-between" wrap="nowrap" py="sm" gap="md">
      <Stack gap={2} style={{ minWidth: 0 }}>
        <Text size="xs" c="dimmed" tt="uppercase" fw={600} style={{ letterSpacing: 0.4 }}>
          {label}
        </Text>
        <Text size="sm" c={value ? undefined : 'dimmed'} style={{ wordBreak: 'break-word' }}>
          {value || 'Not set'}
        </Text>
        {extra}
      </Stack>
      <Button variant="subtle" size="xs" leftSection={<IconPencil size={14} />} onClick={onEdit} aria-label={`Edit ${label.toLowerCase()}`}>
        Edit
      </Button>
    </Group>
  );
}

export function ProfileScreen() {
  const profile = useProfile();
  const [editing, setEditing] = useState<TField | null>(null);
  const close = () => setEditing(null);

  if (profile.isPending) return <LoadingScreen />;
  if (profile.isError) return <ErrorState error={profile.error} onRetry={() => void profile.refetch()} />;
  const user = profile.data;

  return (
    <>
      <PageHeader title="Profile" description="Your personal details, login and regional settings." />
      <Stack gap="lg">
        <Card>
          <Group gap="lg" wrap="nowrap">
            <Avatar size={64} radius="xl" color="indigo">
              {getInitials(user.name)}
            </Avatar>
            <Stack gap={4} style={{ minWidth: 0 }}>
              <Group gap="xs">
                <Title order={3} fz={20}>
                  {user.name}
                </Title>
                <Badge variant="light">{ROLE_LABELS[user.user_role]}</Badge>
              </Group>
              <Group gap={6}>
                <Text size="sm" c="dimmed">
                  {user.email}
                </Text>
                {user.isEmailVerified ? (
                  <Badge color="teal" variant="light" leftSection={<IconCircleCheck size={12} />} size="sm">
                    Verified
                  </Badge>
                ) : (
                  <Badge color="orange" variant="light" leftSection={<IconAlertTriangle size={12} />} size="sm">
                    Not verified
                  </Badge>
                )}
              </Group>
              <Text size="xs" c="dimmed">
                {user.organisation.name} · member since {formatDate(user.activated_on)}
              </Text>
            </Stack>
          </Group>
        </Card>

        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <Card>
            <Title order={4} fz={16} mb="xs">
              Personal details
            </Title>
            <Divider />
            <FieldRow label="Name" value={user.name} onEdit={() => setEditing('name')} />
            <Divider />
            <FieldRow
              label="Email"
              value={user.email}
              onEdit={() => setEditing('email')}
              extra={
                user.pending_email ? (
                  <Text size="xs" c="orange.8">
                    Waiting for confirmation of {user.pending_email}: open the link we sent to it.
                  </Text>
                ) : null
              }
            />
            <Divider />
            <FieldRow label="Phone" value={user.phone_number ?? ''} onEdit={() => setEditing('phone')} />
            <Divider />
            <FieldRow label="Address" value={formatAddress(user.address)} onEdit={() => setEditing('address')} />
          </Card>
          <Stack gap="lg">
            <Card>
              <Title order={4} fz={16} mb="xs">
                Login and region
              </Title>
              <Divider />
              <FieldRow
                label="Password"
                value={user.has_password ? '••••••••••' : ''}
                onEdit={() => setEditing('password')}
                extra={
                  <Text size="xs" c="dimmed">
                    Last changed {formatDate(user.last_password_updated)}
                  </Text>
                }
              />
              <Divider />
              <FieldRow label="Timezone" value={user.timezone} onEdit={() => setEditing('timezone')} />
            </Card>
            <Card>
              <Title order={4} fz={16} mb="sm">
                Organisation
              </Title>
              <SimpleGrid cols={2} spacing="sm">
                <Stack gap={2}>
                  <Text size="xs" c="dimmed">
                    Name
                  </Text>
                  <Text size="sm">{user.organisation.name}</Text>
                </Stack>
                <Stack gap={2}>
                  <Text size="xs" c="dimmed">
                    Plan
                  </Text>
                  <Text size="sm">{user.current_plan.name}</Text>
                </Stack>
                <Stack gap={2}>
                  <Text size="xs" c="dimmed">
                    Member seats
                  </Text>
                  <Text size="sm">{formatNumber(user.organisation.plan.user_create_limit)}</Text>
                </Stack>
                <Stack gap={2}>
                  <Text size="xs" c="dimmed">
                    Organisation credits
                  </Text>
                  <Text size="sm">{formatNumber(user.organisation.credits)}</Text>
                </Stack>
              </SimpleGrid>
            </Card>
          </Stack>
        </SimpleGrid>
      </Stack>

      <Modal opened={editing !== null} onClose={close} title={editing ? EDIT_TITLES[editing] : ''} size="md">
        {editing === 'name' ? <EditNameForm name={user.name} onDone={close} /> : null}
        {editing === 'email' ? <EditEmailForm email={user.email} onDone={close} /> : null}
        {editing === 'phone' ? <EditPhoneForm phone={user.phone_number} onDone={close} /> : null}
        {editing === 'address' ? <EditAddressForm address={user.address} onDone={close} /> : null}
        {editing === 'timezone' ? <EditTimezoneForm timezone={user.timezone} onDone={close} /> : null}
        {editing === 'password' ? <EditPasswordForm onDone={close} /> : null}
      </Modal>
    </>
  );
}
