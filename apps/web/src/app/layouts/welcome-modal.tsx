import { Button, Group, Modal, Stack, Text, ThemeIcon, Title, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconCoins, IconKey, IconMailCheck, IconSparkles } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useSessionStore } from '../../lib/session-store';

const STEPS = [
  { icon: IconMailCheck, title: 'Verify your email', text: 'Open the link we mailed you so your account is fully active.', to: '/account/profile' },
  { icon: IconCoins, title: 'Check your credits', text: 'Every verification and lookup uses credits from your balance.', to: '/account/credits' },
  { icon: IconKey, title: 'Connect your tools', text: 'Create an API key to verify addresses from your own systems.', to: '/account/api' },
];

/** Shown once after an account's first login. */
export function WelcomeModal() {
  const opened = useSessionStore((state) => state.showWelcome && state.isLogged);
  const name = useSessionStore((state) => state.name);
  const isEmailVerified = useSessionStore((state) => state.isEmailVerified);
  const role = useSessionStore((state) => state.user_role);
  const dismissWelcome = useSessionStore((state) => state.dismissWelcome);
  const steps = STEPS.filter((step) => !(step.to === '/account/profile' && isEmailVerified)).filter(
    (step) => step.to !== '/account/api' || role === 'owner' || role === 'admin',
  );

  return (
    <Modal opened={opened} onClose={dismissWelcome} size="lg" title={<VisuallyHidden>Welcome</VisuallyHidden>} withCloseButton closeButtonProps={{ 'aria-label': 'Close' }}>
      <Stack gap="lg" px="sm" pb="sm">
        <Stack gap={6} align="center" ta="center">
          <ThemeIcon size={56} radius="xl" variant="gradient" gradient={{ from: 'indigo.6', to: 'cyan.5', deg: 135 }}>
            <IconSparkles size={28} />
          </ThemeIcon>
          <Title order={2} fz={24}>
            Welcome to Verilead, {name}!
          </Title>
          <Text c="dimmed" size="sm">
            Your workspace is ready. Here is how to get going.
          </Text>
        </Stack>
        <Stack gap="sm">
          {steps.map((step) => (
            <UnstyledButton
              key={step.title}
              component={Link}
              to={step.to}
              onClick={dismissWelcome}
              p="sm"
              style={{ border: '1px solid var(--mantine-color-gray-3)', borderRadius: 10 }}
            >
              <Group wrap="nowrap" gap="md">
              <ThemeIcon variant="light" size={40} radius="md">
                <step.icon size={20} />
              </ThemeIcon>
              <Stack gap={0}>
                <Text fw={600} size="sm">
                  {step.title}
                </Text>
                <Text size="sm" c="dimmed">
                  {step.text}
                </Text>
              </Stack>
              </Group>
            </UnstyledButton>
          ))}
        </Stack>
        <Group justify="flex-end">
          <Button onClick={dismissWelcome}>Get started</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
