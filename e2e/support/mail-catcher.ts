import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { MAIL_CATCHER_PORT } from '../playwright.config';

/**
 * A real SMTP server on loopback that the app under test sends its mail to
 * (SMTP_URL in playwright.config.ts). Every message is kept as a file so specs
 * can read verification, reset and invitation links the way a person would.
 */
export const MAIL_DIR = join(import.meta.dirname, '../test-results/mail');

export async function startMailCatcher(): Promise<() => Promise<void>> {
  mkdirSync(MAIL_DIR, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        count += 1;
        const to = session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase());
        const file = join(MAIL_DIR, `${Date.now()}-${count}.json`);
        writeFileSync(file, JSON.stringify({ to, raw: Buffer.concat(chunks).toString('utf8') }));
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(MAIL_CATCHER_PORT, '127.0.0.1', () => resolve());
  });
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}

type TCaughtMail = { to: string[]; raw: string; text: string };

function decodeQuotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

function readMails(): TCaughtMail[] {
  let files: string[] = [];
  try {
    files = readdirSync(MAIL_DIR).filter((file) => file.endsWith('.json')).sort();
  } catch {
    return [];
  }
  return files.map((file) => {
    const mail = JSON.parse(readFileSync(join(MAIL_DIR, file), 'utf8')) as { to: string[]; raw: string };
    return { ...mail, text: decodeQuotedPrintable(mail.raw) };
  });
}

/** Waits for the newest mail to `to` containing a link with `pathPart`, and answers that link. */
export async function waitForMailLink(to: string, pathPart: string, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  const pattern = new RegExp(`https?://[^\\s"'<>]*${pathPart.replace(/[/?]/g, '\\$&')}[^\\s"'<>]*`);
  while (Date.now() < deadline) {
    const mails = readMails().filter((mail) => mail.to.includes(to.toLowerCase())).reverse();
    for (const mail of mails) {
      const match = mail.text.match(pattern);
      if (match) return match[0].replace(/&amp;/g, '&');
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`No mail to ${to} with a link to ${pathPart} within ${timeoutMs} ms`);
}
