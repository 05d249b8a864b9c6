import { useState } from 'react';
import { ActionIcon, Alert, Badge, Button, Card, Code, CopyButton, Group, Paper, SimpleGrid, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconAlertCircle, IconCheck, IconCopy, IconRosetteDiscountCheck } from '@tabler/icons-react';
import type { TSsoDomainClaim } from '@verilead/contracts';
import { getErrorMessage } from '../../../lib/api-error';
import { formatDate, formatDateTime } from '../../../lib/format';
import { useVerifySsoDomain } from '../api/sso-api';

/** One value of the DNS record, with a copy button. */
function RecordValue({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Code style={{ flex: 1, fontSize: 13, wordBreak: 'break-all' }}>{value}</Code>
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? 'Copied' : `Copy ${label.toLowerCase()}`} withArrow>
              <ActionIcon variant="light" color={copied ? 'teal' : 'indigo'} onClick={copy} aria-label={`Copy ${label.toLowerCase()}`}>
                {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}

function ClaimRow({ claim }: { claim: TSsoDomainClaim }) {
  const verify = useVerifySsoDomain();
  const [refused, setRefused] = useState<string | null>(null);
  const onVerify = async () => {
    setRefused(null);
    try {
      await verify.mutateAsync(claim.domain);
    } catch (error) {
      setRefused(getErrorMessage(error));
    }
  };
  const verified = claim.status === 'verified';
  const failure = refused ?? claim.failure;
  return (
    <Paper withBorder p="md" radius="md" data-testid={`domain-claim-${claim.domain}`}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text fw={600} style={{ wordBreak: 'break-all' }}>
            {claim.domain}
          </Text>
          <Badge color={verified ? 'teal' : 'yellow'} variant="light" leftSection={verified ? <IconRosetteDiscountCheck size={14} /> : undefined}>
            {verified ? 'Verified' : 'Pending'}
          </Badge>
        </Group>
        {verified ? (
          <Text size="sm">Verified on {formatDate(claim.verified_at)}. People with this domain sign in through your provider and join just in time.</Text>
        ) : (
          <>
            <Text size="sm">
              Publish this TXT record in the DNS of {claim.domain}, then press Verify. Until then nobody signs in or joins through this domain.
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              <RecordValue label="Name (host)" value={claim.txt_name} />
              <RecordValue label="Value" value={claim.txt_value} />
            </SimpleGrid>
            <Text size="xs" c="dimmed">
              Record type TXT. DNS changes can take a few minutes to be seen (up to the record&apos;s TTL).
            </Text>
            {failure ? (
              <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert" title="Not verified yet">
                {failure}
                {claim.checked_at && !refused ? ` (checked ${formatDateTime(claim.checked_at)})` : null}
              </Alert>
            ) : null}
            <Group justify="flex-end">
              <Button variant="light" onClick={() => void onVerify()} loading={verify.isPending}>
                Verify
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Paper>
  );
}

/** The claimed domains: each pending until its TXT record proves the organisation controls it. */
export function DomainClaimsCard({ claims, unsaved }: { claims: TSsoDomainClaim[]; unsaved: string[] }) {
  return (
    <Card>
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={4}>Domain verification</Title>
          <Text size="sm" c="dimmed">
            A domain counts for single sign-on only once you prove your organisation controls it, with a DNS TXT record at{' '}
            <Code>_verilead-challenge.&lt;domain&gt;</Code>. Free e-mail providers and public suffixes cannot be used.
          </Text>
        </Stack>
        {claims.length === 0 && unsaved.length === 0 ? <Text size="sm">Add your e-mail domains above and save: each gets a DNS record to publish.</Text> : null}
        {claims.map((claim) => (
          <ClaimRow key={claim.domain} claim={claim} />
        ))}
        {unsaved.length > 0 ? (
          <Text size="sm" c="dimmed">
            Save to get the DNS record for {unsaved.join(', ')}.
          </Text>
        ) : null}
      </Stack>
    </Card>
  );
}
