import { Anchor, Card, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { PageHeader } from '../../../components/page-header';

/** /account/help: where to find answers. */
export function HelpScreen() {
  return (
    <>
      <PageHeader title="Help" description="Answers to common questions, and where to get more help." />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Card>
          <Stack gap="xs">
            <Title order={4}>Verifying e-mails</Title>
            <List size="sm" spacing={6}>
              <List.Item>Valid, invalid and catch-all results use one credit; duplicates and unknown results are free.</List.Item>
              <List.Item>Safe-to-send is guaranteed if you send within 24 hours of verification.</List.Item>
              <List.Item>Bulk files may be CSV or XLSX up to 20 MB.</List.Item>
            </List>
          </Stack>
        </Card>
        <Card>
          <Stack gap="xs">
            <Title order={4}>Single sign-on</Title>
            <Text size="sm">
              Owners and managers connect an identity provider (OpenID Connect or SAML 2.0) under{' '}
              <Anchor component={Link} to="/account/authentication">
                Account → Authentication
              </Anchor>
              . Colleagues with your e-mail domains then use{' '}
              <Anchor component={Link} to="/sso/signin">
                Sign in with SSO
              </Anchor>{' '}
              and join your organisation on their first sign-in.
            </Text>
          </Stack>
        </Card>
        <Card>
          <Stack gap="xs">
            <Title order={4}>Developers</Title>
            <Text size="sm">
              Create an app and use its token with the API. The reference lists every call:{' '}
              <Anchor component={Link} to="/developer/reference">
                API reference
              </Anchor>
              .
            </Text>
          </Stack>
        </Card>
        <Card>
          <Stack gap="xs">
            <Title order={4}>Still stuck?</Title>
            <Text size="sm">Ask the owner of your organisation, or the administrator of this Verilead installation.</Text>
            <Anchor component={Link} to="/terms" size="sm">
              Terms and privacy
            </Anchor>
          </Stack>
        </Card>
      </SimpleGrid>
    </>
  );
}
