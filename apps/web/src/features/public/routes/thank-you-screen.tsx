import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { IconHeartHandshake } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';

/** /thank_you: after the uninstall survey (and other public forms). */
export function ThankYouScreen() {
  const [params] = useSearchParams();
  const fromUninstall = params.get('from') === 'uninstall';
  return (
    <Paper withBorder shadow="sm" p={{ base: 'lg', sm: 36 }} radius="lg" w="100%" maw={480}>
      <Stack gap="md" align="center" ta="center">
        <IconHeartHandshake size={48} color="var(--mantine-color-indigo-6)" />
        <Title order={1} fz={26}>
          Thank you!
        </Title>
        <Text size="sm">{fromUninstall ? 'Your feedback reached us. It helps us make Verilead better.' : 'We have received your message.'}</Text>
        <Anchor component={Link} to="/public/instant_search">
          Verify an e-mail address without an account
        </Anchor>
      </Stack>
    </Paper>
  );
}
