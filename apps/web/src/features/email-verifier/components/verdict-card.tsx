import { useState, type ReactNode } from 'react';
import { Alert, Badge, Button, Card, Code, Collapse, Divider, Group, RingProgress, SimpleGrid, Stack, Text, ThemeIcon, Title, Tooltip } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconClockHour4, IconInfoCircle, IconMailForward, IconWand } from '@tabler/icons-react';
import { SAFE_TO_SEND_WINDOW_HOURS, type TVerificationResult } from '@verilead/contracts';
import { formatDateTime, getScoreLabel } from '../../../lib/format';
import { CatchAllScoreBadge } from './catch-all-score-badge';
import { describeReason, formatTimeTaken, getSafeToSendLook, getScoreColor, listResultFlags, STATUS_LOOKS, toScorePercent } from '../utils/verdict-format';

function Field({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} style={{ letterSpacing: 0.4 }}>
        {label}
      </Text>
      <Text size="sm" fw={500} data-testid={testId} style={{ wordBreak: 'break-word' }}>
        {value}
      </Text>
    </Stack>
  );
}

/** The score ring: deliverability in percent with the spec's score label. */
export function ScoreRing({ score, size = 132 }: { score: number; size?: number }) {
  const percent = toScorePercent(score);
  const label = getScoreLabel(percent);
  return (
    <RingProgress
      size={size}
      thickness={size / 11}
      roundCaps
      sections={percent > 0 ? [{ value: percent, color: getScoreColor(percent) }] : []}
      aria-label={label === '-' ? 'No deliverability score' : `Deliverability score ${percent}%`}
      label={
        <Stack gap={0} align="center">
          {/* No score is a dash, not "0%" above "No score" (it read as a measured zero). */}
          <Text fw={800} fz={size / 4.4} lh={1} data-testid="deliverability-score">
            {label === '-' ? '–' : `${percent}%`}
          </Text>
          <Text size="xs" c="dimmed">
            {label === '-' ? 'No score' : label}
          </Text>
        </Stack>
      }
    />
  );
}

type TVerdict = TVerificationResult & { safe_to_send_until?: string; credits_charged?: number; billable?: boolean };

/** Every field of a verification result, the reason in plain words and the SMTP transcript behind Details. */
export function VerdictCard({ result, onRecheck }: { result: TVerdict; onRecheck?: (email: string) => void }) {
  const [showDetails, setShowDetails] = useState(false);
  const status = STATUS_LOOKS[result.status];
  const safe = getSafeToSendLook(result.safe_to_send);
  const flags = listResultFlags(result);

  return (
    <Card padding="xl" data-testid="verdict-card" aria-label={`Result for ${result.email}`} style={{ borderTop: `4px solid var(--mantine-color-${status.color}-6)` }}>
      <Stack gap="lg">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="lg">
          <Stack gap={8} style={{ flex: 1, minWidth: 260 }}>
            <Title order={3} fz={22} style={{ wordBreak: 'break-all' }} data-testid="verdict-email">
              {result.email}
            </Title>
            {/* The reason once, beside the status: the AI verdict and the reason code said it again in other words. */}
            {/* Beside the badge when there is room; under it on a phone (a server reply can be long). */}
            <Group gap="xs" wrap="wrap" align="center" data-testid="verdict-status-line">
              <Tooltip label={status.description} withArrow multiline maw={280}>
                <Badge size="lg" color={status.color} variant="filled" radius="sm" data-testid="verdict-status" style={{ flexShrink: 0 }}>
                  {status.label}
                </Badge>
              </Tooltip>
              <Text size="sm" fw={500} data-testid="verdict-reason" style={{ flex: '1 1 220px', minWidth: 0, overflowWrap: 'anywhere' }}>
                {describeReason(result.reason)}
              </Text>
            </Group>
            <Group gap="xs">
              <Badge size="lg" color={safe.color} variant="light" radius="sm" data-testid="verdict-safe-to-send">
                {safe.label}
              </Badge>
              {result.catch_all_score ? <CatchAllScoreBadge value={result.catch_all_score} size="lg" showEvidence /> : null}
            </Group>
          </Stack>
          <ScoreRing score={result.deliverability_score} />
        </Group>

        {result.suggested_email_address ? (
          <Alert color="indigo" variant="light" icon={<IconWand size={18} />} title="Did you mean">
            <Group justify="space-between" wrap="wrap" gap="sm">
              <Text size="sm" fw={600} data-testid="verdict-suggestion">
                {result.suggested_email_address}
              </Text>
              {onRecheck ? (
                <Button size="xs" variant="light" onClick={() => onRecheck(result.suggested_email_address ?? '')}>
                  Check {result.suggested_email_address}
                </Button>
              ) : null}
            </Group>
          </Alert>
        ) : null}

        {result.safe_to_send === 'yes' ? (
          <Group gap="xs" wrap="nowrap">
            <ThemeIcon size="sm" variant="light" color="teal" radius="xl">
              <IconClockHour4 size={14} />
            </ThemeIcon>
            <Text size="sm" c="dimmed">
              Safe to send is guaranteed if you send within {SAFE_TO_SEND_WINDOW_HOURS} hours of verification
              {result.safe_to_send_until ? ` (until ${formatDateTime(result.safe_to_send_until)})` : ''}.
            </Text>
          </Group>
        ) : (
          <Group gap="xs" wrap="nowrap">
            <ThemeIcon size="sm" variant="light" color="gray" radius="xl">
              <IconInfoCircle size={14} />
            </ThemeIcon>
            <Text size="sm" c="dimmed">
              Results are good for {SAFE_TO_SEND_WINDOW_HOURS} hours; verify again before a later send.
            </Text>
          </Group>
        )}

        <Group gap="xs" aria-label="Address flags">
          {flags.map((flag) => (
            <Tooltip key={flag.key} label={flag.hint} withArrow>
              <Badge variant={flag.on ? 'light' : 'outline'} color={flag.on ? flag.color : 'gray'} radius="sm" data-testid={`flag-${flag.key}`} data-on={flag.on}>
                {flag.on ? '✓ ' : '✕ '}
                {flag.label}
              </Badge>
            </Tooltip>
          ))}
        </Group>

        <Divider />

        <SimpleGrid cols={{ base: 2, sm: 3, md: 4 }} spacing="lg" verticalSpacing="md">
          <Field label="Account" value={result.account || '-'} />
          <Field label="Domain" value={result.domain || '-'} />
          <Field label="MX record" value={result.mx_record ?? 'None'} testId="verdict-mx" />
          <Field label="Provider" value={result.smtp_provider ?? 'Unknown'} testId="verdict-provider" />
          <Field label="Greylisted" value={result.greylist_count > 0 ? `${result.greylist_count} time${result.greylist_count === 1 ? '' : 's'}` : 'No'} />
          <Field label="Time taken" value={formatTimeTaken(result.time_taken)} testId="verdict-time" />
          <Field label="Verified on" value={formatDateTime(result.verified_on)} />
          {result.credits_charged !== undefined ? (
            <Field label="Credits charged" value={result.credits_charged === 0 ? 'None (not billable)' : result.credits_charged} testId="verdict-credits" />
          ) : null}
        </SimpleGrid>

        <Stack gap="xs">
          <Button
            variant="subtle"
            size="compact-sm"
            w="fit-content"
            leftSection={<IconMailForward size={16} />}
            rightSection={showDetails ? <IconChevronUp size={14} /> : <IconChevronDown size={14} />}
            onClick={() => setShowDetails((value) => !value)}
            aria-expanded={showDetails}
          >
            {showDetails ? 'Hide details' : 'Details'}
          </Button>
          <Collapse expanded={showDetails}>
            {showDetails ? (
              <Text size="xs" c="dimmed" mb="xs">
                Reason code <Code data-testid="verdict-reason-code">{result.reason.code}</Code>
              </Text>
            ) : null}
            {result.transcript.length === 0 ? (
              <Text size="sm" c="dimmed">
                No SMTP conversation was needed for this verdict (decided before contacting a mail server).
              </Text>
            ) : (
              <Code block data-testid="smtp-transcript" style={{ maxHeight: 320, overflow: 'auto', fontSize: 12 }}>
                {result.transcript.map((line) => `${String(Math.round(line.at_ms)).padStart(6, ' ')} ms  ${line.direction === 'C' ? '>' : '<'} ${line.line}`).join('\n')}
              </Code>
            )}
          </Collapse>
        </Stack>
      </Stack>
    </Card>
  );
}
