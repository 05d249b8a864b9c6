import { Badge, List, Stack, Text, Tooltip } from '@mantine/core';
import type { TCatchAllScore } from '@verilead/contracts';

/** Green from 70, yellow from 40, red below: how likely a catch-all address is a real mailbox. */
function colorOf(score: number): string {
  return score >= 70 ? 'teal' : score >= 40 ? 'yellow' : 'red';
}

/**
 * A catch-all verdict's score (0–100: how likely the address is a real mailbox), shown beside the catch-all badge.
 * The evidence behind it is in the badge's tooltip and, with `showEvidence`, listed under it.
 */
export function CatchAllScoreBadge({ value, showEvidence = false, size = 'sm' }: { value: TCatchAllScore; showEvidence?: boolean; size?: 'sm' | 'lg' }) {
  const reasons = value.evidence.map((e) => e.text);
  const badge = (
    <Badge size={size} color={colorOf(value.score)} variant="light" radius="sm" data-testid="catch-all-score" aria-label={`Catch-all score ${value.score} of 100: ${reasons.join('; ')}`}>
      {value.score}% likely real
    </Badge>
  );
  if (!showEvidence) {
    return (
      <Tooltip label={reasons.join('\n')} multiline w={320} style={{ whiteSpace: 'pre-line' }} disabled={reasons.length === 0}>
        {badge}
      </Tooltip>
    );
  }
  return (
    <Stack gap={4}>
      {badge}
      <List size="xs" spacing={2} data-testid="catch-all-evidence" aria-label="Why this score">
        {value.evidence.map((e) => (
          <List.Item key={`${e.kind}:${e.text}`} data-kind={e.kind}>
            <Text size="xs" c="dimmed" span>
              {e.text}
            </Text>
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}
