import { Badge, Button, Card, Group, ScrollArea, Select, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { TBounceKind, TBounceMapping, TBounceReportPreview } from '@verilead/contracts';

const FIELDS: { key: keyof TBounceMapping; label: string; required?: boolean }[] = [
  { key: 'email_column', label: 'Email address', required: true },
  { key: 'type_column', label: 'Bounce type' },
  { key: 'code_column', label: 'SMTP code / status' },
  { key: 'reason_column', label: 'Reason' },
  { key: 'date_column', label: 'Bounce date' },
];

/** Reads one sample row's kind as the server will (type words, else 5.x.x / 4.x.x codes, else the reason). */
function kindLabel(kind: TBounceKind | null) {
  if (kind === 'hard') return <Badge color="red">Hard</Badge>;
  if (kind === 'soft') return <Badge color="yellow">Soft</Badge>;
  return (
    <Badge color="gray" variant="light">
      Ignored
    </Badge>
  );
}

/**
 * The uploaded report's columns as detected (ESP, email, type, code, reason, date), each changeable, with the first
 * rows. The sample's kinds are the detected mapping's; a changed mapping is read by the server when applied.
 */
export function MappingPreview({
  preview,
  mapping,
  onChange,
  onApply,
  onCancel,
  applying,
}: {
  preview: TBounceReportPreview;
  mapping: TBounceMapping;
  onChange: (mapping: TBounceMapping) => void;
  onApply: () => void;
  onCancel: () => void;
  applying: boolean;
}) {
  const options = preview.columns.map((label, i) => ({ value: String(i), label: `${i + 1}. ${label}` }));
  const changed = FIELDS.some((f) => mapping[f.key] !== preview.mapping[f.key]);
  return (
    <Card data-testid="bounce-preview">
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap">
          <Stack gap={2}>
            <Title order={4} fz={16}>
              Check the columns of {preview.file_name}
            </Title>
            <Text size="sm" c="dimmed">
              {preview.detected_esp ? `Looks like a ${preview.detected_esp} export. ` : ''}Hard bounces are 5.x.x codes or words like “hard”, “permanent”, “user unknown”;
              soft ones 4.x.x, “soft”, “transient”, “mailbox full”.
            </Text>
          </Stack>
          {preview.detected_esp ? <Badge variant="light">{preview.detected_esp}</Badge> : null}
        </Group>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }}>
          {FIELDS.map((f) => (
            <Select
              key={f.key}
              label={f.label}
              data={options}
              value={mapping[f.key] === null ? null : String(mapping[f.key])}
              clearable={!f.required}
              allowDeselect={!f.required}
              placeholder="Not in the file"
              onChange={(v) => onChange({ ...mapping, [f.key]: v === null ? (f.required ? mapping[f.key] : null) : Number(v) })}
            />
          ))}
        </SimpleGrid>
        <ScrollArea>
          <Table aria-label="First rows of the report" miw={560} fz="sm">
            <Table.Thead>
              <Table.Tr>
                {preview.columns.map((c, i) => (
                  <Table.Th key={i}>{c}</Table.Th>
                ))}
                <Table.Th>Read as</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {preview.sample.map((row, i) => (
                <Table.Tr key={i}>
                  {preview.columns.map((_, j) => (
                    <Table.Td key={j}>
                      <Text size="sm" lineClamp={1} maw={260}>
                        {row.cells[j] ?? ''}
                      </Text>
                    </Table.Td>
                  ))}
                  <Table.Td>{changed ? <Text size="xs" c="dimmed">on apply</Text> : kindLabel(row.kind)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={applying}>
            Cancel
          </Button>
          <Button onClick={onApply} loading={applying}>
            Apply bounces
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
