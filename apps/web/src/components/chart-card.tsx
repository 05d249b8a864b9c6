import type { ReactNode } from 'react';
import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconFileTypeCsv } from '@tabler/icons-react';
import { saveCsv, toCsv } from '../lib/csv-export';
import { EmptyState } from './state-views';

export type TCsvColumn<T> = { key: keyof T & string; label: string };

/** A chart in a card: its title, an "Export CSV" of exactly the data it draws, and an empty state when there is nothing. */
export function ChartCard<T extends Record<string, unknown>>({
  title,
  description,
  rows,
  columns,
  fileName,
  isEmpty,
  emptyText = 'Nothing in this period.',
  children,
}: {
  title: string;
  description?: string;
  rows: readonly T[];
  columns: readonly TCsvColumn<T>[];
  fileName: string;
  isEmpty?: boolean;
  emptyText?: string;
  children: ReactNode;
}) {
  const empty = isEmpty ?? rows.length === 0;
  return (
    <Card h="100%">
      <Group justify="space-between" align="flex-start" mb="md" wrap="nowrap">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Title order={4} fz={16}>
            {title}
          </Title>
          {description ? (
            <Text size="xs" c="dimmed">
              {description}
            </Text>
          ) : null}
        </Stack>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconFileTypeCsv size={14} />}
          disabled={rows.length === 0}
          style={{ flexShrink: 0 }}
          onClick={() => saveCsv(fileName, toCsv(rows, columns))}
          aria-label={`Export ${title} as CSV`}
        >
          Export CSV
        </Button>
      </Group>
      {empty ? <EmptyState title="No usage yet" description={emptyText} /> : children}
    </Card>
  );
}
