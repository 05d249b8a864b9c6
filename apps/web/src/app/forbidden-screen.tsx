import { Button, Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { Link } from 'react-router';

/** Shown in place of a screen the user's role may not open (the address stays as typed). */
export function ForbiddenScreen() {
  return (
    <Center py={80}>
      <Stack align="center" gap="sm" maw={420} ta="center">
        <ThemeIcon size={56} radius="xl" variant="light" color="gray">
          <IconLock size={28} />
        </ThemeIcon>
        <Title order={2}>You don&apos;t have access to this page</Title>
        <Text c="dimmed">Your role in this organisation cannot open it. If you need it, ask the owner of your organisation.</Text>
        <Button component={Link} to="/" variant="light">
          Go to the dashboard
        </Button>
      </Stack>
    </Center>
  );
}
