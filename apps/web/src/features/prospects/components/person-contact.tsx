import { Badge, Group, Text } from '@mantine/core';
import type { TProspectPerson } from '@verilead/contracts';

/** E-mail and phone of a person: masked until revealed, with the verification status once revealed. */
export function PersonContact({ person }: { person: TProspectPerson }) {
  return (
    <>
      <Group gap={4} wrap="nowrap">
        <Text size="sm" ff={person.email_revealed ? undefined : 'monospace'} c={person.email_revealed ? undefined : 'dimmed'} data-testid="person-email">
          {person.email ?? 'No e-mail'}
        </Text>
        {person.email_status ? (
          <Badge size="xs" color={person.email_status === 'valid' ? 'green' : 'yellow'} variant="light">
            {person.email_status === 'catch_all' ? 'catch-all' : person.email_status}
          </Badge>
        ) : null}
      </Group>
      <Text size="xs" c="dimmed" data-testid="person-phone">
        {person.phone ? `${person.phone}${person.phone_revealed && person.phone_type ? ` (${person.phone_type === 'mobile' ? 'mobile' : 'fixed line'})` : ''}` : 'No phone'}
      </Text>
    </>
  );
}
