import { ActionIcon, Alert, Badge, Card, CopyButton, Group, RingProgress, Stack, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy, IconMailSearch } from '@tabler/icons-react';
import type { TFinderResult } from '@verilead/contracts';
import { formatDateTime, humanizeKey } from '../../../lib/format';
import { describeFinderReason, getConfidenceLook, listFinderFlags } from '../utils/finder-format';

/** One finder answer: the address (or "not found"), the confidence score with its label, flags, catch-all note and reason. */
export function FinderResultCard({ result, creditsCharged }: { result: TFinderResult; creditsCharged?: number }) {
  const found = result.status === 'found' && result.email !== null;
  const look = getConfidenceLook(result.confidence_score);
  return (
    <Card padding="lg" data-testid="finder-result">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="lg">
        <Stack gap={6} style={{ flex: 1, minWidth: 260 }}>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            {result.full_name} · {result.company.name ? `${result.company.name} (${result.domain})` : result.domain}
          </Text>
          {found ? (
            <Group gap="xs" wrap="nowrap">
              <Text fz={24} fw={700} data-testid="finder-email" style={{ wordBreak: 'break-all' }}>
                {result.email}
              </Text>
              <CopyButton value={result.email ?? ''}>
                {({ copied, copy }) => (
                  <Tooltip label={copied ? 'Copied' : 'Copy address'} withArrow>
                    <ActionIcon variant="subtle" onClick={copy} aria-label="Copy address">
                      {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                    </ActionIcon>
                  </Tooltip>
                )}
              </CopyButton>
            </Group>
          ) : (
            <Group gap="xs">
              <IconMailSearch size={22} color="var(--mantine-color-gray-6)" />
              <Text fz={20} fw={700} c="dimmed" data-testid="finder-email">
                No address found
              </Text>
            </Group>
          )}
          <Group gap={6}>
            <Badge color={found ? 'teal' : 'gray'} variant="filled" data-testid="finder-status">
              {found ? 'Found' : 'Not found'}
            </Badge>
            {listFinderFlags(result)
              .filter((flag) => flag.on)
              .map((flag) => (
                <Tooltip key={flag.key} label={flag.hint} withArrow>
                  <Badge color={flag.color} variant="light" data-testid={`flag-${flag.key}`}>
                    {flag.label}
                  </Badge>
                </Tooltip>
              ))}
            {found && !result.business ? (
              <Badge color="gray" variant="light">
                Personal domain
              </Badge>
            ) : null}
          </Group>
          <Text size="sm" data-testid="finder-reason">
            {describeFinderReason(result.reason)}
          </Text>
          <Text size="xs" c="dimmed">
            {result.pattern ? `Pattern ${result.pattern} · ` : ''}
            {result.candidates_tried} candidate{result.candidates_tried === 1 ? '' : 's'} checked
            {result.verification_status ? ` · verification ${humanizeKey(result.verification_status)}` : ''} · {formatDateTime(result.found_on)}
            {creditsCharged !== undefined ? ` · ${creditsCharged === 0 ? 'not charged' : `${creditsCharged} credit${creditsCharged === 1 ? '' : 's'} charged`}` : ''}
          </Text>
        </Stack>
        <Stack gap={2} align="center">
          <RingProgress
            size={120}
            thickness={12}
            roundCaps
            sections={[{ value: result.confidence_score, color: look.color }]}
            label={
              <Text ta="center" fw={700} fz={24} data-testid="finder-confidence">
                {result.confidence_score}
              </Text>
            }
            aria-label={`Confidence score ${result.confidence_score}`}
          />
          <Text size="sm" fw={600} c={look.color === 'gray' ? 'dimmed' : look.color} data-testid="finder-confidence-label">
            {look.label === 'None' ? 'No confidence' : `${look.label} confidence`}
          </Text>
        </Stack>
      </Group>
      {result.catch_all && found ? (
        <Alert mt="md" color="orange" variant="light" icon={<IconAlertTriangle size={18} />} title="Catch-all domain" data-testid="catch-all-note">
          {result.domain} accepts mail for every address, so this address could not be confirmed. It is the most likely pattern, with a lower confidence.
        </Alert>
      ) : null}
    </Card>
  );
}
