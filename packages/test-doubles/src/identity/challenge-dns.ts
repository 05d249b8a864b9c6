import { startDnsServer, type TDnsZoneData } from '@verilead/mailworld';

export type TChallengeDns = {
  /** Give these to the server as DNS_SERVERS (config.dnsServers). */
  dnsServers: string[];
  /** Publishes (replaces) the TXT records of a name; an empty list removes the name. */
  publishTxt(name: string, values: string[]): void;
  stop(): Promise<void>;
};

/**
 * A DNS server on 127.0.0.1 (the mail world's, UDP and TCP) whose TXT records a test publishes as it goes: the
 * domain verification of single sign-on is proved against it, never against the internet.
 */
export async function startChallengeDns(): Promise<TChallengeDns> {
  const zone: TDnsZoneData = { names: new Map(), apexes: new Set(), rcodeZones: new Map() };
  const server = await startDnsServer(zone);
  return {
    dnsServers: [`127.0.0.1:${server.port}`],
    publishTxt: (name, values) => {
      if (values.length === 0) zone.names.delete(name.toLowerCase());
      else zone.names.set(name.toLowerCase(), { txt: values });
    },
    stop: () => server.stop(),
  };
}
