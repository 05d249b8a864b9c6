import { rmSync } from 'node:fs';
import { MAIL_DIR, startMailCatcher } from './mail-catcher';

export default async function globalSetup() {
  rmSync(MAIL_DIR, { recursive: true, force: true });
  return startMailCatcher();
}
