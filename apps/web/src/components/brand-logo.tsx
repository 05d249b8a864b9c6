import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconChecks } from '@tabler/icons-react';

/** The Verilead mark and word. */
/** `compact`: the word is shown from the `xs` breakpoint only (the app header on a phone keeps the mark). */
export function BrandLogo({ inverted = false, size = 'md', compact = false }: { inverted?: boolean; size?: 'md' | 'lg'; compact?: boolean }) {
  const big = size === 'lg';
  return (
    <Group gap={8} wrap="nowrap">
      <ThemeIcon size={big ? 38 : 32} radius="md" variant={inverted ? 'white' : 'gradient'} gradient={{ from: 'indigo.6', to: 'cyan.5', deg: 135 }}>
        <IconChecks size={big ? 22 : 19} stroke={2.4} />
      </ThemeIcon>
      <Text fw={750} fz={big ? 24 : 20} c={inverted ? 'white' : undefined} style={{ letterSpacing: -0.4 }} visibleFrom={compact ? 'xs' : undefined}>
        Verilead
      </Text>
    </Group>
  );
}
