/**
 * Run a mail world on its own until Ctrl-C, for manual checks (dig @127.0.0.1 -p PORT gmail.com MX; swaks; the app):
 *   npx tsx packages/mailworld/src/cli.ts [corpus-size] [seed]
 */
import { makeCorpus } from './corpus';
import { describeMailWorld } from './describe-world';
import { startMailWorld } from './mail-world';

const size = Number(process.argv[2] ?? 200);
const seed = Number(process.argv[3] ?? 1);
const world = await startMailWorld({ corpus: makeCorpus(size, seed) });
console.log(describeMailWorld(world));
const stopWorld = () => {
  void world.stop().then(() => process.exit(0));
};
process.once('SIGINT', stopWorld);
process.once('SIGTERM', stopWorld);
