import { Alert, Button, Group, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { INTEGRATION_CATALOG, type TIntegration, type TIntegrationTestCredentials } from '@verilead/contracts';
import { useIntegrationTestMode } from '../api/integrations-api';

/**
 * "Test mode": this server answers the platforms with local stand-ins (nothing leaves it). On a connect form
 * (`platform`, `onFill`), the stand-in's credentials can be filled in with one click.
 */
export function IntegrationTestModeNotice({ platform, onFill }: { platform?: TIntegration; onFill?: (c: TIntegrationTestCredentials) => void }) {
  const mode = useIntegrationTestMode();
  if (!mode.data?.test_mode) return null;
  const creds = platform ? mode.data.credentials[platform] : undefined;
  const label = platform ? INTEGRATION_CATALOG[platform].label : null;
  return (
    <Alert color="yellow" variant="light" icon={<IconInfoCircle size={18} />} title="Test mode" maw={platform ? 560 : undefined} data-testid="integration-test-mode">
      <Text size="sm">
        {label
          ? `${label} is answered by a local stand-in on this server, with demo contacts: nothing is sent to ${label}.`
          : 'Every platform is answered by a local stand-in on this server, with demo contacts: nothing is sent to the real platforms.'}
      </Text>
      {creds && onFill ? (
        <Group mt="xs">
          <Button size="xs" variant="light" color="yellow" onClick={() => onFill(creds)}>
            Fill in the test credentials
          </Button>
        </Group>
      ) : null}
    </Alert>
  );
}
