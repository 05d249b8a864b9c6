import { useMemo, useState } from 'react';
import { Accordion, Badge, Code, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { TOpenApiDocument, TOpenApiOperation } from '../api/developer-api';

const METHOD_COLORS: Record<string, string> = { get: 'blue', post: 'teal', put: 'orange', patch: 'grape', delete: 'red' };
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** A schema in short form: `$ref` names, object properties, array items. */
function describeSchema(schema: unknown, depth = 0): string {
  if (!schema || typeof schema !== 'object' || depth > 3) return '';
  const s = schema as Record<string, unknown>;
  if (typeof s.$ref === 'string') return s.$ref.split('/').pop() ?? '';
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    if (Array.isArray(s[key])) return (s[key] as unknown[]).map((x) => describeSchema(x, depth + 1)).join(key === 'allOf' ? ' & ' : ' | ');
  }
  if (s.type === 'array') return `${describeSchema(s.items, depth + 1) || 'any'}[]`;
  if (s.properties && typeof s.properties === 'object') {
    const req = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
    const fields = Object.entries(s.properties as Record<string, unknown>).map(([k, v]) => `${k}${req.has(k) ? '' : '?'}: ${describeSchema(v, depth + 1) || 'any'}`);
    return `{ ${fields.join(', ')} }`;
  }
  if (Array.isArray(s.enum)) return (s.enum as unknown[]).map((x) => JSON.stringify(x)).join(' | ');
  return typeof s.type === 'string' ? s.type : '';
}

function OperationDetail({ op }: { op: TOpenApiOperation }) {
  const body = op.requestBody?.content ? Object.entries(op.requestBody.content)[0] : undefined;
  return (
    <Stack gap="sm">
      {op.description ? (
        <Text size="sm" c="dimmed">
          {op.description}
        </Text>
      ) : null}
      {op.parameters && op.parameters.length > 0 ? (
        <Table withTableBorder fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Parameter</Table.Th>
              <Table.Th>In</Table.Th>
              <Table.Th>Type</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {op.parameters.map((p) => (
              <Table.Tr key={`${p.in}-${p.name}`}>
                <Table.Td ff="monospace">
                  {p.name}
                  {p.required ? ' *' : ''}
                </Table.Td>
                <Table.Td>{p.in}</Table.Td>
                <Table.Td ff="monospace">{describeSchema(p.schema)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
      {body ? (
        <Stack gap={2}>
          <Text size="sm" fw={500}>
            Request body ({body[0]})
          </Text>
          <Code block>{describeSchema(body[1].schema)}</Code>
        </Stack>
      ) : null}
      <Stack gap={2}>
        <Text size="sm" fw={500}>
          Responses
        </Text>
        {Object.entries(op.responses ?? {}).map(([status, r]) => (
          <Group key={status} gap="xs" wrap="nowrap" align="flex-start">
            <Badge variant="outline" color={status.startsWith('2') ? 'teal' : 'red'} style={{ flexShrink: 0 }}>
              {status}
            </Badge>
            <Text size="sm" ff="monospace" style={{ wordBreak: 'break-word' }}>
              {r.description ? `${r.description} ` : ''}
              {r.content ? describeSchema(Object.values(r.content)[0]?.schema) : ''}
            </Text>
          </Group>
        ))}
      </Stack>
    </Stack>
  );
}

/** Renders an OpenAPI document's operations, searchable, each expandable to parameters, body and responses. */
export function OpenApiView({ doc, basePath }: { doc: TOpenApiDocument; basePath: string }) {
  const [search, setSearch] = useState('');
  const operations = useMemo(
    () =>
      Object.entries(doc.paths ?? {}).flatMap(([path, ops]) =>
        Object.entries(ops)
          .filter(([m]) => METHODS.includes(m))
          .map(([method, op]) => ({ path, method, op })),
      ),
    [doc],
  );
  const q = search.trim().toLowerCase();
  const shown = q ? operations.filter((o) => `${o.method} ${o.path} ${o.op.summary ?? ''} ${(o.op.tags ?? []).join(' ')}`.toLowerCase().includes(q)) : operations;
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {doc.info?.title} {doc.info?.version ? `v${doc.info.version}` : ''} · base <Code data-testid="reference-base-url">{doc.servers?.[0]?.url ?? basePath}</Code> · {operations.length} operations
        </Text>
        <TextInput size="xs" leftSection={<IconSearch size={14} />} aria-label="Filter operations" placeholder="Filter operations" value={search} onChange={(e) => setSearch(e.currentTarget.value)} />
      </Group>
      {shown.length === 0 ? (
        <Text size="sm" c="dimmed">
          No operation matches “{search}”.
        </Text>
      ) : (
        <Accordion variant="separated" multiple>
          {shown.map(({ path, method, op }) => (
            <Accordion.Item key={`${method} ${path}`} value={`${method} ${path}`}>
              <Accordion.Control>
                <Group gap="sm" wrap="nowrap">
                  <Badge color={METHOD_COLORS[method] ?? 'gray'} w={70} style={{ flexShrink: 0 }}>
                    {method.toUpperCase()}
                  </Badge>
                  <Text ff="monospace" size="sm">
                    {path}
                  </Text>
                  <Text size="sm" c="dimmed" lineClamp={1}>
                    {op.summary ?? ''}
                  </Text>
                </Group>
              </Accordion.Control>
              <Accordion.Panel>
                <OperationDetail op={op} />
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      )}
    </Stack>
  );
}
