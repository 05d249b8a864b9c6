import { Badge, Group, ScrollArea, Table } from '@mantine/core';

/** Column titles of a preview: the header row's names, or "Column n". */
export function getPreviewColumnLabels(rows: readonly (readonly string[])[], hasHeader: boolean): string[] {
  const width = rows.reduce((max, row) => Math.max(max, row.length), 0);
  const header = hasHeader ? (rows[0] ?? []) : [];
  return Array.from({ length: width }, (_, index) => {
    const name = header[index]?.trim();
    return name ? name : `Column ${index + 1}`;
  });
}

/**
 * The first rows of a chosen file; mapped columns are highlighted with a badge naming their role
 * (`tags`), a click on a heading calls `onColumn`, and `isCellWrong` marks cells in red.
 */
export function FilePreviewTable({
  rows,
  hasHeader,
  tags,
  onColumn,
  isCellWrong,
}: {
  rows: readonly (readonly string[])[];
  hasHeader: boolean;
  tags: ReadonlyMap<number, string>;
  onColumn?: (index: number) => void;
  isCellWrong?: (columnIndex: number, value: string) => boolean;
}) {
  const columns = getPreviewColumnLabels(rows, hasHeader);
  const data = hasHeader ? rows.slice(1) : rows;
  return (
    <ScrollArea type="auto">
      <Table withTableBorder withColumnBorders striped aria-label="File preview" fz="sm">
        <Table.Thead>
          <Table.Tr>
            {columns.map((label, index) => {
              const tag = tags.get(index);
              return (
                <Table.Th key={index} bg={tag ? 'indigo.0' : undefined} style={{ cursor: onColumn ? 'pointer' : undefined, whiteSpace: 'nowrap' }} onClick={() => onColumn?.(index)}>
                  <Group gap={6} wrap="nowrap">
                    {label}
                    {tag ? (
                      <Badge size="xs" color="indigo" variant="filled">
                        {tag}
                      </Badge>
                    ) : null}
                  </Group>
                </Table.Th>
              );
            })}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.map((row, rowIndex) => (
            <Table.Tr key={rowIndex}>
              {columns.map((_, index) => {
                const value = row[index] ?? '';
                const tagged = tags.has(index);
                return (
                  <Table.Td key={index} bg={tagged ? 'indigo.0' : undefined} c={tagged && value && isCellWrong?.(index, value) ? 'red.7' : undefined} style={{ whiteSpace: 'nowrap' }}>
                    {value}
                  </Table.Td>
                );
              })}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}
