import { Suspense } from 'react';
import { Box, Center, Group, List, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck, IconMailSearch, IconShieldCheck, IconUsersGroup } from '@tabler/icons-react';
import { Outlet } from 'react-router';
import { BrandLogo } from '../../components/brand-logo';
import { LoadingScreen } from '../../components/loading-screen';

const POINTS = [
  { icon: IconShieldCheck, title: 'Verify before you send', text: 'Real-time and bulk checks: syntax, DNS, mailbox and catch-all detection.' },
  { icon: IconMailSearch, title: 'Find the right address', text: 'Look up work emails by name and company with a confidence score.' },
  { icon: IconUsersGroup, title: 'Built for teams', text: 'Shared credits, member limits and roles for owners, managers and executives.' },
];

/** Logged-out screens: brand panel on the left, the form on the right. */
export function AuthLayout() {
  return (
    <Box mih="100vh" style={{ display: 'flex' }} bg="gray.0">
      <Box
        visibleFrom="md"
        w="44%"
        p={48}
        style={{
          background: 'linear-gradient(150deg, var(--mantine-color-indigo-8) 0%, var(--mantine-color-indigo-6) 55%, var(--mantine-color-cyan-6) 120%)',
          display: 'flex',
          flexDirection: 'column',
          justifyContent: 'space-between',
        }}
      >
        <BrandLogo inverted size="lg" />
        <Stack gap="xl" maw={440}>
          <Title order={1} c="white" fz={34} lh={1.2}>
            Clean lists. Real contacts. Better deliverability.
          </Title>
          <List spacing="lg" icon={null} listStyleType="none">
            {POINTS.map((point) => (
              <List.Item key={point.title}>
                <Group gap="md" wrap="nowrap" align="flex-start">
                  <ThemeIcon variant="white" color="indigo" radius="md" size={36}>
                    <point.icon size={20} />
                  </ThemeIcon>
                  <Stack gap={2}>
                    <Text c="white" fw={600}>
                      {point.title}
                    </Text>
                    <Text c="indigo.0" size="sm">
                      {point.text}
                    </Text>
                  </Stack>
                </Group>
              </List.Item>
            ))}
          </List>
        </Stack>
        <Group gap={6}>
          <IconCircleCheck size={16} color="white" />
          <Text c="indigo.1" size="xs">
            Self-hosted: your data stays on your servers.
          </Text>
        </Group>
      </Box>
      <Center style={{ flex: 1 }} p="lg">
        <Stack w="100%" maw={440} gap="lg">
          <Box hiddenFrom="md">
            <BrandLogo />
          </Box>
          <Suspense fallback={<LoadingScreen />}>
            <Outlet />
          </Suspense>
        </Stack>
      </Center>
    </Box>
  );
}
