import { Suspense, useMemo } from 'react';
import {
  AppShell,
  Avatar,
  Badge,
  Box,
  Burger,
  Button,
  Container,
  Group,
  Menu,
  NavLink,
  ScrollArea,
  Stack,
  Text,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { useDisclosure, useElementSize } from '@mantine/hooks';
import {
  IconChevronDown,
  IconCoins,
  IconHistory,
  IconLogout,
  IconPlus,
  IconReceipt,
  IconUserCircle,
} from '@tabler/icons-react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { ROLE_LABELS, groupMenusByArea, visibleMenus, findMenuEntry } from '@verilead/contracts';
import { BrandLogo } from '../../components/brand-logo';
import { LoadingScreen } from '../../components/loading-screen';
import { formatBalance, formatNumber } from '../../lib/format';
import { useSessionStore } from '../../lib/session-store';
import { signOutUser } from '../../lib/sign-out';
import { useCreditsAndLimits, useProfile } from '../../lib/user-queries';
import { AnnouncementBar } from '../../features/announcements';
import { WelcomeModal } from './welcome-modal';
import { findActiveMenuPath } from '../active-menu';
import { BUILT_SCREENS } from '../built-screens';
import { getMenuIcon } from './nav-icons';

const HEADER_HEIGHT = 60;

function getInitials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? 'U') + (parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? '') : '')).toUpperCase();
}

/** The logged-in shell: header with credits and user menu, navbar with the role's menus, main area. */
export function AppLayout() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const { ref: bannerRef, height: bannerHeight } = useElementSize();
  const location = useLocation();
  const navigate = useNavigate();
  const role = useSessionStore((state) => state.user_role);
  const name = useSessionStore((state) => state.name);
  const email = useSessionStore((state) => state.email);
  const credits = useSessionStore((state) => state.credits);
  useCreditsAndLimits();
  // The profile on every load: a time zone (or name) changed elsewhere reaches this session's dates at once.
  useProfile();

  const groups = useMemo(() => (role ? groupMenusByArea(visibleMenus(role, BUILT_SCREENS)) : []), [role]);
  const activePath = findActiveMenuPath(
    groups.flatMap((group) => group.entries.map((entry) => entry.path)),
    location.pathname,
  );
  const pricing = findMenuEntry('account', 'pricing');
  const canBuy = Boolean(role && pricing && pricing.roles.includes(role) && BUILT_SCREENS.has('account.pricing'));

  const handleLogout = async () => {
    await signOutUser();
    navigate('/login', { replace: true });
  };

  return (
    <AppShell
      header={{ height: HEADER_HEIGHT + bannerHeight }}
      navbar={{ width: 256, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="lg"
    >
      <AppShell.Header>
        <Box ref={bannerRef}>
          <AnnouncementBar />
        </Box>
        <Group h={HEADER_HEIGHT} px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <UnstyledButton component={Link} to="/" aria-label="Verilead home">
              <BrandLogo compact />
            </UnstyledButton>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <Tooltip label={`${formatNumber(credits ?? 0)} credits available`} withArrow>
              <Button
                component={Link}
                to="/account/credits"
                variant="light"
                color="indigo"
                radius="xl"
                leftSection={<IconCoins size={18} />}
                aria-label="Credits balance"
              >
                <span data-testid="credits-balance">{formatBalance(credits ?? 0)}</span>&nbsp;
                <Text span size="sm" fw={500} visibleFrom="xs">
                  credits
                </Text>
              </Button>
            </Tooltip>
            {canBuy ? (
              <Button component={Link} to="/pricing?buy=1" radius="xl" leftSection={<IconPlus size={16} />} visibleFrom="sm">
                Add credits
              </Button>
            ) : null}
            <Menu position="bottom-end" width={240} shadow="md" withinPortal>
              <Menu.Target>
                <UnstyledButton aria-label="User menu" px={6} py={4} style={{ borderRadius: 8 }}>
                  <Group gap={8} wrap="nowrap">
                    <Avatar color="indigo" radius="xl" size={34}>
                      {getInitials(name)}
                    </Avatar>
                    <Stack gap={0} visibleFrom="md">
                      <Text size="sm" fw={600} lh={1.2} maw={160} truncate>
                        {name}
                      </Text>
                      <Text size="xs" c="dimmed" lh={1.2}>
                        {role ? ROLE_LABELS[role] : ''}
                      </Text>
                    </Stack>
                    <IconChevronDown size={14} />
                  </Group>
                </UnstyledButton>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Label>
                  <Text size="xs" truncate>
                    {email}
                  </Text>
                </Menu.Label>
                {canBuy ? (
                  // On a phone the header has no room for "Add credits": buying stays one tap from every screen.
                  <Menu.Item component={Link} to="/pricing?buy=1" leftSection={<IconPlus size={16} />} hiddenFrom="sm">
                    Add credits
                  </Menu.Item>
                ) : null}
                <Menu.Item component={Link} to="/account/profile" leftSection={<IconUserCircle size={16} />}>
                  Profile
                </Menu.Item>
                <Menu.Item component={Link} to="/account/credits" leftSection={<IconReceipt size={16} />}>
                  Credits &amp; transactions
                </Menu.Item>
                <Menu.Item component={Link} to="/activities" leftSection={<IconHistory size={16} />}>
                  Activities
                </Menu.Item>
                <Menu.Divider />
                <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={() => void handleLogout()}>
                  Log out
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="sm" aria-label="Main navigation">
        <AppShell.Section grow component={ScrollArea}>
          <Stack gap="md">
            {groups.map((group) => (
              <Box key={group.area} component="nav" aria-label={group.label}>
                {group.area !== 'dashboard' ? (
                  <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" mb={4} style={{ letterSpacing: 0.6 }}>
                    {group.label}
                  </Text>
                ) : null}
                {group.entries.map((entry) => {
                  const Icon = getMenuIcon(entry);
                  return (
                    <NavLink
                      key={`${entry.area}.${entry.key}`}
                      component={Link}
                      to={entry.path}
                      label={entry.area === 'dashboard' ? 'Dashboard' : entry.label}
                      leftSection={<Icon size={18} stroke={1.7} />}
                      active={entry.path === activePath}
                      onClick={close}
                      variant="light"
                      style={{ borderRadius: 8 }}
                    />
                  );
                })}
              </Box>
            ))}
          </Stack>
        </AppShell.Section>
        <AppShell.Section pt="sm" style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}>
          <Group justify="space-between" px="sm">
            <Text size="xs" c="dimmed">
              Signed in as
            </Text>
            {role ? (
              <Badge variant="light" color="gray" size="sm">
                {ROLE_LABELS[role]}
              </Badge>
            ) : null}
          </Group>
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main bg="gray.0">
        <Container size="lg" px={0}>
          <Suspense fallback={<LoadingScreen />}>
            <Outlet />
          </Suspense>
        </Container>
        <WelcomeModal />
      </AppShell.Main>
    </AppShell>
  );
}
