import type { TStandIn } from '../config-test-doubles';

export type { TPlatformStandIn, TStandIn, TStandInMember, TTestDoubles } from '../config-test-doubles';

/**
 * The stand-ins this process started, one per name (`oauth:zoho`, `key:hubspot`), each started on first use and shared
 * by the routes and the jobs. The composition root builds one per process and hands it over in the dependency record.
 */
export type TStandIns = {
  /** The stand-in of `name`: started with `start` on the first call, the same one after. */
  get(name: string, start: () => Promise<TStandIn>): Promise<TStandIn>;
  /** The stand-in of `name` once it listens; undefined before (or when none was asked for). */
  running(name: string): TStandIn | undefined;
  /** Stops every stand-in started so far (tests). */
  close(): Promise<void>;
};

export function createStandIns(): TStandIns {
  const pending = new Map<string, Promise<TStandIn>>();
  const listening = new Map<string, TStandIn>();
  return {
    get(name, start) {
      let p = pending.get(name);
      if (!p) {
        p = start().then((standIn) => {
          listening.set(name, standIn);
          return standIn;
        });
        pending.set(name, p);
      }
      return p;
    },
    running: (name) => listening.get(name),
    async close() {
      for (const p of pending.values()) await (await p).close();
      pending.clear();
      listening.clear();
    },
  };
}
