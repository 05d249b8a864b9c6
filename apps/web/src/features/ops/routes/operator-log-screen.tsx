import { useState } from 'react';
import { Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { AUDIT_ACTIONS, type TAuditAction } from '@verilead/contracts';
import { PageHeader } from '../../../components/page-header';
import { formatDateTime } from '../../../lib/format';
import { useOperatorLog } from '../api/ops-api';
import { OpsPager, OpsTable, QueryStates } from '../components/ops-parts';

function labelOf(action: string): string {
  return AUDIT_ACTIONS[action as TAuditAction] ?? action;
}

const HEADERS = [{ label: 'When' }, { label: 'Operator' }, { label: 'Action' }, { label: 'Details' }];

/** /ops/log: every operator action, newest first (the organisation's own audit log has those about it). */
export function OperatorLogScreen() {
  const [page, setPage] = useState(1);
  const log = useOperatorLog(page);
  const data = log.data;
  return (
    <Stack>
      <PageHeader title="Operator log" description="What operators did, newest first." />
      <QueryStates query={log} empty={data?.items.length === 0} emptyTitle="No operator actions yet" />
      {data && data.items.length > 0 ? (
        <OpsTable minWidth={640} headers={HEADERS}>
          {data.items.map((entry) => (
            <Table.Tr key={entry.id}>
              <Table.Td>{formatDateTime(entry.created_at)}</Table.Td>
              <Table.Td>{entry.operator_email}</Table.Td>
              <Table.Td>
                {labelOf(entry.action)}
                {entry.org_id ? (
                  <Text component={Link} to={`/ops/orgs/${entry.org_id}`} size="xs" c="indigo.7" display="block">
                    Open organisation
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td>
                <Text size="xs" ff="monospace" style={{ wordBreak: 'break-word' }}>
                  {JSON.stringify(entry.details)}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </OpsTable>
      ) : null}
      <OpsPager data={data} page={page} onChange={setPage} />
    </Stack>
  );
}
