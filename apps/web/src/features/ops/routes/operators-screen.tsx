import { useState } from 'react';
import { Alert, Badge, Button, Card, Group, Modal, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import type { TOperator } from '@verilead/contracts';
import { PageHeader } from '../../../components/page-header';
import { NameAndEmail } from '../../../components/list-table-row';
import { getErrorMessage } from '../../../lib/api-error';
import { formatDateTime } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import { useInviteOperator, useOperators, useSetOperatorStatus } from '../api/ops-api';
import { useOpsSession } from '../api/ops-session-store';
import { FormAlert, OpsTable, QueryStates } from '../components/ops-parts';

const HEADERS = [{ label: 'Operator' }, { label: 'Status' }, { label: 'Since' }, { label: '', right: true }];

function StatusBadge({ operator }: { operator: TOperator }) {
  if (operator.disabled) return <Badge color="gray">Disabled</Badge>;
  return operator.active ? <Badge color="green">Active</Badge> : <Badge color="yellow">Invited</Badge>;
}

/** Confirms disabling (every session and pending link revoked at once) or enabling an operator. */
function StatusDialog({ target, onClose }: { target: TOperator | null; onClose: () => void }) {
  const change = useSetOperatorStatus();
  const [error, setError] = useState<string | null>(null);
  const disabling = target ? !target.disabled : true;
  const close = () => {
    setError(null);
    onClose();
  };
  const confirm = async () => {
    if (!target) return;
    setError(null);
    try {
      const done = await change.mutateAsync({ id: target.id, disabled: disabling });
      showToast({ title: 'Done', message: done.message, kind: 'success' });
      close();
    } catch (cause) {
      setError(getErrorMessage(cause));
    }
  };
  const verb = disabling ? 'Disable' : 'Enable';
  return (
    <Modal opened={target !== null} onClose={close} title={`${verb} ${target?.email ?? ''}`} centered>
      <Stack>
        <Text size="sm">
          {disabling
            ? 'They are signed out of every session at once, their pending links stop working, and they cannot sign in until an operator enables them again.'
            : 'They can sign in again with their password.'}
        </Text>
        <FormAlert message={error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button color={disabling ? 'red' : 'green'} loading={change.isPending} onClick={() => void confirm()}>
            {`${verb} operator`}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** /ops/operators: the installation's operators, inviting one (the link is mailed to them), disabling and enabling. */
export function OperatorsScreen() {
  const operators = useOperators();
  const invite = useInviteOperator();
  const me = useOpsSession((s) => s.operator);
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [target, setTarget] = useState<TOperator | null>(null);
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setError(null);
    setSent(null);
    try {
      const invitation = await invite.mutateAsync({ email: email.trim(), ...(name.trim() ? { name: name.trim() } : {}) });
      setSent(`Invitation sent to ${invitation.operator.email}. The link in it works once and expires ${formatDateTime(invitation.expires_at)}.`);
      setEmail('');
      setName('');
    } catch (cause) {
      setError(getErrorMessage(cause));
    }
  };
  return (
    <Stack>
      <PageHeader title="Operators" description="People who run this installation. They are not members of any organisation." />
      <Card>
        <form onSubmit={(e) => void submit(e)}>
          <Stack>
            <Title order={4} fz={16}>
              Invite an operator
            </Title>
            <Group align="flex-end" wrap="wrap">
              <TextInput label="E-mail" type="email" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} miw={240} />
              <TextInput label="Name (optional)" value={name} onChange={(e) => setName(e.currentTarget.value)} miw={200} />
              <Button type="submit" loading={invite.isPending}>
                Invite
              </Button>
            </Group>
            <FormAlert message={error} />
            {sent ? (
              <Alert color="green" role="status">
                {sent}
              </Alert>
            ) : null}
          </Stack>
        </form>
      </Card>
      <QueryStates query={operators} empty={operators.data?.items.length === 0} emptyTitle="No operators" />
      {operators.data && operators.data.items.length > 0 ? (
        <OpsTable minWidth={560} headers={HEADERS}>
          {operators.data.items.map((op) => (
            <Table.Tr key={op.id}>
              <Table.Td>
                <NameAndEmail name={op.name} email={op.email} />
              </Table.Td>
              <Table.Td>
                <StatusBadge operator={op} />
              </Table.Td>
              <Table.Td>{formatDateTime(op.created_at)}</Table.Td>
              <Table.Td ta="right">
                {op.id === me?.id ? (
                  <Text size="xs" c="dimmed">
                    You
                  </Text>
                ) : (
                  <Button size="xs" variant="light" color={op.disabled ? 'green' : 'red'} onClick={() => setTarget(op)} aria-label={`${op.disabled ? 'Enable' : 'Disable'} ${op.email}`}>
                    {op.disabled ? 'Enable' : 'Disable'}
                  </Button>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </OpsTable>
      ) : null}
      <StatusDialog target={target} onClose={() => setTarget(null)} />
    </Stack>
  );
}
