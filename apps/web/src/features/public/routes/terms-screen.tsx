import { Anchor, List, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

/** /terms: the terms of service and privacy policy of this Verilead installation (open to everyone). */
export function TermsScreen() {
  return (
    <Paper withBorder shadow="sm" p={{ base: 'lg', sm: 36 }} radius="lg" w="100%" maw={720}>
      <Stack gap="md">
        <Title order={1} fz={26}>
          Terms of service
        </Title>
        <Text size="sm">
          This Verilead installation is run by the organisation that gave you access to it (the operator). By creating an account or
          logging in you agree to these terms.
        </Text>
        <List size="sm" spacing={6}>
          <List.Item>Use the service only for addresses and people you have a lawful reason to contact or process.</List.Item>
          <List.Item>Do not use it to send unsolicited mail, to probe mail servers you are not allowed to test, or to get round its limits.</List.Item>
          <List.Item>Keep your password and API keys secret; you are responsible for what is done with them.</List.Item>
          <List.Item>
            Credits are spent on verifications and searches as shown before each job; the operator may change plans, limits and prices.
          </List.Item>
          <List.Item>Results are estimates from mail servers and public records; they come without a guarantee of accuracy.</List.Item>
          <List.Item>The operator may suspend an account that breaks these terms.</List.Item>
        </List>

        <Title order={2} fz={20} id="privacy">
          Privacy policy
        </Title>
        <Text size="sm">What this installation keeps, and why:</Text>
        <List size="sm" spacing={6}>
          <List.Item>Your account: name, email address, password (stored only as a hash), and the phone number, address and time zone you enter.</List.Item>
          <List.Item>The lists you upload and their results, kept until you delete them or your account.</List.Item>
          <List.Item>An activity log of sign-ins, changes and jobs, shown to you under Activities.</List.Item>
          <List.Item>
            To verify an address the service asks its domain&apos;s mail servers whether it exists; no mail is sent to the address.
          </List.Item>
        </List>
        <Text size="sm">
          Data stays with the operator and is not sold. You can delete your account (and its data) from your account settings; for
          anything else, contact the operator of this installation.
        </Text>
        <Anchor component={Link} to="/login" size="sm">
          Back to login
        </Anchor>
      </Stack>
    </Paper>
  );
}
