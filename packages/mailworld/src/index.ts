export type { TCorpusEntry, TExpected, TExpectedStatus, THostStats, TMailWorld, TMailWorldPreset, TStartMailWorldOptions } from './types';
export { startMailWorld } from './mail-world';
export { makeCorpus, makeRealisticCorpus } from './corpus';
export { DOMAINS as SCENARIO_DOMAINS, SCENARIO_EXAMPLES } from './scenarios';
export { parseAddress } from './truth';
export { describeMailWorld } from './describe-world';
export { makePeopleCorpus, makeLocalPart, foldName, PEOPLE_DOMAINS, type TPerson, type TPeopleCorpus, type TPersonScenario } from './people-corpus';
export { createRandom, type TRandom } from './prng';
export { startDnsServer, type TDnsName, type TDnsServer, type TDnsZoneData } from './dns-server';
