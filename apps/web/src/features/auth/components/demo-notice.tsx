import { useEffect, useState } from 'react';
import { Alert, Code, Text } from '@mantine/core';
import { IconFlask } from '@tabler/icons-react';
import type { TInstanceData } from '@verilead/contracts';
import { loadInstanceInfo } from '../api/instance-call';

/**
 * "Demo" on the sign-in pages of the quick start (NODE_ENV not production): its data is made up, its accounts share a
 * published password and payments run in test mode. Nothing shows on a production server. Loaded after the page
 * (`demo-notice-slot.tsx`), so the log-in page's JavaScript budget does not carry it.
 */
export default function DemoNotice() {
  const [info, setInfo] = useState<TInstanceData | null>(null);
  useEffect(() => {
    let live = true;
    void loadInstanceInfo().then((answer) => {
      if (live) setInfo(answer);
    });
    return () => {
      live = false;
    };
  }, []);
  if (!info?.demo) return null;
  return (
    <Alert color="yellow" variant="light" icon={<IconFlask size={18} />} title="Demo" role="note" aria-label="Demo">
      <Text size="sm">This server is the quick start&apos;s demo: its data is made up and payments run in test mode.</Text>
      {info.demo_accounts.length > 0 && info.demo_password ? (
        <Text size="sm" mt={6}>
          Log in as{' '}
          {info.demo_accounts.map((account, i) => (
            <span key={account.email}>
              {i > 0 ? (i === info.demo_accounts.length - 1 ? ' or ' : ', ') : null}
              <Code>{account.email}</Code> ({account.role.toLowerCase()})
            </span>
          ))}{' '}
          with the password <Code>{info.demo_password}</Code>.
        </Text>
      ) : null}
    </Alert>
  );
}
