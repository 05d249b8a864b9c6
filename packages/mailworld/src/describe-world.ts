import type { TMailWorld } from './types';

/** A human-readable summary of a running world: where it listens and each scenario's examples with their verdicts. */
export function describeMailWorld(world: TMailWorld): string {
  const lines = [
    `mail world: DNS ${world.dnsServers.join(', ')} (UDP+TCP), SMTP port ${world.smtpPort}, ` +
      `greylisting ${world.greylistDelayMs} ms, ${world.truth.size} known addresses`,
  ];
  for (const [scenario, addresses] of Object.entries(world.examples)) {
    const described = addresses.map((email) => {
      const expected = world.truth.get(email.toLowerCase());
      return `${email} → ${expected ? `${expected.status}/${expected.reason}` : '?'}`;
    });
    lines.push(`  ${scenario.padEnd(11)} ${described.join(', ')}`);
  }
  return lines.join('\n');
}
