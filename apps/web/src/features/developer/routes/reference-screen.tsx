import { useState } from 'react';
import { Card, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import { TEST_ADDRESSES } from '@verilead/contracts';
import { ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { PageHeader } from '../../../components/page-header';
import { PUBLIC_API_DOCUMENT_URL, useOpenApiDocument } from '../api/developer-api';
import { OpenApiView } from '../components/openapi-view';

const DOCUMENTS = {
  public: { label: 'Public API (/v2, app tokens)', url: PUBLIC_API_DOCUMENT_URL, base: '/v2' },
  app: { label: 'App API (/api/v1)', url: '/api/v1/openapi.json', base: '/api/v1' },
} as const;

/** The API reference: the public API's and the app API's OpenAPI documents, rendered in the app. */
export function ReferenceScreen() {
  const [which, setWhich] = useState<keyof typeof DOCUMENTS>('public');
  const d = DOCUMENTS[which];
  const doc = useOpenApiDocument(d.url);
  return (
    <>
      <PageHeader title="API Reference" description="Every operation with its parameters, body and answers." />
      <Stack gap="lg">
        <SegmentedControl
          value={which}
          onChange={(v) => setWhich(v as keyof typeof DOCUMENTS)}
          data={Object.entries(DOCUMENTS).map(([value, x]) => ({ value, label: x.label }))}
        />
        <Card>{doc.isPending ? <LoadingScreen /> : doc.isError ? <ErrorState error={doc.error} onRetry={() => void doc.refetch()} /> : <OpenApiView doc={doc.data} basePath={d.base} />}</Card>
        {which === 'public' ? (
          <Card>
            <Title order={4} fz={16} mb="xs">
              Test addresses
            </Title>
            <Text size="sm" c="dimmed" mb="sm">
              Fixed verdicts, nothing stored, nothing charged. Errors answer numeric codes: 1000 invalid token, 1002 no credits, 1017 daily limit, 1029 list not available,
              1116 list not cancellable; 429 carries Retry-After; every answer carries X-RateLimit-Limit, -Remaining and -Reset.
            </Text>
            <Table>
              <Table.Tbody>
                {TEST_ADDRESSES.map((a) => (
                  <Table.Tr key={a.email}>
                    <Table.Td ff="monospace">{a.email}</Table.Td>
                    <Table.Td>{a.status}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Card>
        ) : null}
      </Stack>
    </>
  );
}
