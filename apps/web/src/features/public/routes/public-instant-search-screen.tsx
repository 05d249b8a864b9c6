import { useState, type FormEvent } from 'react';
import { Alert, Anchor, Badge, Button, Group, Paper, RingProgress, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle, IconAt, IconBolt } from '@tabler/icons-react';
import { Link } from 'react-router';
import { SAFE_TO_SEND_WINDOW_HOURS, type TPublicVerifyData, type TVerificationStatus } from '@verilead/contracts';
import { getErrorMessage, isApiError } from '../../../lib/api-error';
import { formatDateTime, getScoreLabel } from '../../../lib/format';
import { useSessionStore } from '../../../lib/session-store';
import { usePublicVerify } from '../api/public-verify-api';

const STATUS: Record<TVerificationStatus, { label: string; color: string }> = {
  valid: { label: 'Valid', color: 'teal' },
  invalid: { label: 'Invalid', color: 'red' },
  catch_all: { label: 'Catch-all', color: 'orange' },
  unknown: { label: 'Unknown', color: 'gray' },
};
const SAFE: Record<TPublicVerifyData['safe_to_send'], { label: string; color: string }> = {
  yes: { label: 'Safe to send', color: 'teal' },
  risky: { label: 'Send with care', color: 'orange' },
  no: { label: 'Do not send', color: 'red' },
};

function PublicResult({ result }: { result: TPublicVerifyData }) {
  const percent = Math.round(result.deliverability_score * 100);
  const status = STATUS[result.status];
  const safe = SAFE[result.safe_to_send];
  const flags = [
    ['Disposable', result.disposable],
    ['Free account', result.free_account],
    ['Role account', result.role_account],
    ['Gibberish', result.gibberish],
  ] as const;
  return (
    <Stack gap="sm" data-testid="verdict-card" aria-label={`Result for ${result.email}`}>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Stack gap={6}>
          <Group gap={6}>
            <Badge color={status.color} variant="filled" radius="sm" data-testid="verdict-status">
              {status.label}
            </Badge>
            <Badge color={safe.color} variant="light" radius="sm">
              {safe.label}
            </Badge>
          </Group>
          <Text fw={600} style={{ wordBreak: 'break-all' }}>
            {result.email}
          </Text>
          <Text size="sm" data-testid="verdict-reason">
            {result.reason.text}
          </Text>
        </Stack>
        <RingProgress
          size={92}
          thickness={9}
          roundCaps
          aria-label={`Deliverability score ${percent}%`}
          sections={percent > 0 ? [{ value: percent, color: percent > 80 ? 'teal' : percent > 60 ? 'lime' : percent > 30 ? 'orange' : 'red' }] : []}
          label={
            <Stack gap={0} align="center">
              <Text fw={800} size="lg" lh={1}>
                {percent}%
              </Text>
              <Text size="10px" c="dimmed">
                {getScoreLabel(percent)}
              </Text>
            </Stack>
          }
        />
      </Group>
      {result.suggested_email_address ? (
        <Text size="sm">
          Did you mean <b>{result.suggested_email_address}</b>?
        </Text>
      ) : null}
      <Group gap={6}>
        {flags.map(([label, on]) => (
          <Badge key={label} variant={on ? 'filled' : 'outline'} color={on ? 'orange' : 'gray'} radius="sm">
            {on ? '✓' : '✕'} {label}
          </Badge>
        ))}
      </Group>
      <SimpleGrid cols={2} spacing="xs">
        <Text size="xs" c="dimmed">
          MX: {result.mx_record ?? 'none'}
        </Text>
        <Text size="xs" c="dimmed">
          Provider: {result.smtp_provider ?? 'unknown'}
        </Text>
      </SimpleGrid>
      {result.safe_to_send === 'yes' ? (
        <Text size="xs" c="dimmed">
          Safe to send is guaranteed within {SAFE_TO_SEND_WINDOW_HOURS} hours of verification (until {formatDateTime(result.safe_to_send_until)}).
        </Text>
      ) : null}
    </Stack>
  );
}

/** /public/instant_search: one free check without an account (rate-limited per IP). */
export function PublicInstantSearchScreen() {
  const [email, setEmail] = useState('');
  const verify = usePublicVerify();
  const isLogged = useSessionStore((state) => state.isLogged);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (email.trim()) verify.mutate(email.trim());
  };
  const limited = isApiError(verify.error) && verify.error.status === 429;

  return (
    <Paper withBorder shadow="sm" p={{ base: 'lg', sm: 32 }} radius="lg" w="100%">
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={2} fz={24}>
            Free email checker
          </Title>
          <Text size="sm" c="dimmed">
            Check whether an address exists and is safe to send to. No account needed.
          </Text>
        </Stack>
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="sm">
            <TextInput
              label="Email address"
              placeholder="name@company.com"
              leftSection={<IconAt size={16} />}
              value={email}
              onChange={(event) => setEmail(event.currentTarget.value)}
              autoComplete="off"
              spellCheck={false}
            />
            <Button type="submit" leftSection={<IconBolt size={16} />} loading={verify.isPending} disabled={email.trim() === ''} fullWidth>
              Check address
            </Button>
          </Stack>
        </form>
        {verify.isError ? (
          <Alert color={limited ? 'orange' : 'red'} variant="light" icon={<IconAlertTriangle size={18} />} title={limited ? 'Too many checks' : 'Check failed'} role="alert">
            {limited ? 'You have reached the limit of free checks for now. Try again later, or sign up to verify without limits.' : getErrorMessage(verify.error)}
          </Alert>
        ) : null}
        {verify.data && !verify.isPending ? <PublicResult result={verify.data} /> : null}
        <Text size="sm" ta="center" c="dimmed">
          {isLogged ? (
            <Anchor component={Link} to="/email_verifier/quick_validation">
              Open Quick Validation in your account
            </Anchor>
          ) : (
            <>
              Need bulk verification?{' '}
              <Anchor component={Link} to="/signup">
                Create a free account
              </Anchor>
            </>
          )}
        </Text>
      </Stack>
    </Paper>
  );
}
