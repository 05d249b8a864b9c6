import { Suspense } from 'react';
import { AppShell, Badge, Burger, Button, Group, NavLink, ScrollArea, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconLogout } from '@tabler/icons-react';
import { Link, Outlet, useLocation } from 'react-router';
import { BrandLogo } from '../../../components/brand-logo';
import { LoadingScreen } from '../../../components/loading-screen';
import { requestOps } from '../api/ops-client';
import { useOpsSession } from '../api/ops-session-store';
import { OPS_SECTIONS } from '../sections';
import { ZMessageData } from '@verilead/contracts';

/** The operator console's shell: header (brand, "Operator console", the operator, sign out) and the sections' nav. */
export function OpsLayout() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const location = useLocation();
  const operator = useOpsSession((s) => s.operator);
  const signOut = async () => {
    try {
      await requestOps({ method: 'POST', path: '/session/logout', schema: ZMessageData });
    } catch {
      // Signed out locally either way.
    }
    useOpsSession.getState().signOut();
  };
  return (
    <AppShell transitionDuration={0} header={{ height: 56 }} navbar={{ width: 230, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Open the console menu" />
            <BrandLogo compact />
            <Badge color="grape" variant="light">
              Operator console
            </Badge>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <Text size="sm" c="dimmed" visibleFrom="sm">
              {operator?.email}
            </Text>
            <Button variant="subtle" size="xs" leftSection={<IconLogout size={16} />} onClick={() => void signOut()}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Operator console">
        <ScrollArea>
          {OPS_SECTIONS.map((section) => (
            <NavLink
              key={section.path}
              component={Link}
              to={`/ops/${section.path}`}
              label={section.label}
              leftSection={<section.icon size={18} />}
              active={location.pathname === `/ops/${section.path}` || location.pathname.startsWith(`/ops/${section.path}/`)}
              onClick={close}
            />
          ))}
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main bg="gray.0">
        <Suspense fallback={<LoadingScreen />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
