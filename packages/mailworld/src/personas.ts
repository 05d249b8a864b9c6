import { randomBytes } from 'node:crypto';
import type { TPersona } from './scenarios';

/** What a host says; each function returns the reply lines (code and text), joined with CRLF by the server. */
export type TPersonaReplies = {
  banner(host: string, sessionId: string): string;
  ehlo(host: string, clientHelo: string, clientIp: string, offerTls: boolean): string[];
  helo(host: string, clientHelo: string, clientIp: string): string;
  mailOk(sender: string, sessionId: string): string;
  rcptOk(recipient: string, sessionId: string): string;
  userUnknown(recipient: string, host: string, sessionId: string): string;
  mailboxFull(recipient: string, sessionId: string): string;
  mailboxDisabled(recipient: string, sessionId: string): string;
  quit(host: string, sessionId: string): string;
};

function formatRfc2822Date(date: Date): string {
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${days[date.getUTCDay()]}, ${date.getUTCDate()} ${months[date.getUTCMonth()]} ${date.getUTCFullYear()} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`;
}

/** A Google-style transaction id such as `d9443c01a7336-2a0b1c3d4e5fsi1234567.89`. */
export function makeSessionId(persona: TPersona): string {
  const hex = randomBytes(8).toString('hex');
  if (persona === 'google') return `d9443c01a7336-${hex.slice(0, 12)}si${parseInt(hex.slice(12), 16) % 9999999}.${hex.length}`;
  return hex.slice(0, 10).toUpperCase();
}

const postfix: TPersonaReplies = {
  banner: (host) => `220 ${host} ESMTP Postfix (Debian/GNU)`,
  ehlo: (host, _helo, _ip, offerTls) => [
    host, 'PIPELINING', 'SIZE 10240000', 'VRFY', 'ETRN', ...(offerTls ? ['STARTTLS'] : []),
    'ENHANCEDSTATUSCODES', '8BITMIME', 'DSN', 'SMTPUTF8', 'CHUNKING',
  ],
  helo: (host) => `250 ${host}`,
  mailOk: () => '250 2.1.0 Ok',
  rcptOk: () => '250 2.1.5 Ok',
  userUnknown: (rcpt) => `550 5.1.1 <${rcpt}>: Recipient address rejected: User unknown in local recipient table`,
  mailboxFull: (rcpt) => `552 5.2.2 <${rcpt}>: Recipient address rejected: Mailbox full`,
  mailboxDisabled: (rcpt) => `550 5.2.1 <${rcpt}>: Recipient address rejected: Mailbox disabled, not accepting messages`,
  quit: () => '221 2.0.0 Bye',
};

const exim: TPersonaReplies = {
  ...postfix,
  banner: (host) => `220 ${host} ESMTP Exim 4.96 ${formatRfc2822Date(new Date())}`,
  ehlo: (host, helo, ip, offerTls) => [
    `${host} Hello ${helo} [${ip}]`, 'SIZE 52428800', '8BITMIME', 'PIPELINING', ...(offerTls ? ['STARTTLS'] : []), 'CHUNKING', 'HELP',
  ],
  helo: (host, helo, ip) => `250 ${host} Hello ${helo} [${ip}]`,
  mailOk: () => '250 OK',
  rcptOk: () => '250 Accepted',
  userUnknown: (rcpt) => `550 5.1.1 <${rcpt}>: Unrouteable address`,
  quit: (host) => `221 ${host} closing connection`,
};

const google: TPersonaReplies = {
  banner: (_host, id) => `220 mx.google.com ESMTP ${id} - gsmtp`,
  ehlo: (_host, _helo, ip, offerTls) => [
    `mx.google.com at your service, [${ip}]`, 'SIZE 157286400', '8BITMIME', ...(offerTls ? ['STARTTLS'] : []),
    'ENHANCEDSTATUSCODES', 'PIPELINING', 'CHUNKING', 'SMTPUTF8',
  ],
  helo: (_host, _helo, ip) => `250 mx.google.com at your service, [${ip}]`,
  mailOk: (_s, id) => `250 2.1.0 OK ${id} - gsmtp`,
  rcptOk: (_r, id) => `250 2.1.5 OK ${id} - gsmtp`,
  userUnknown: (_rcpt, _host, id) => [
    '550-5.1.1 The email account that you tried to reach does not exist. Please try',
    "550-5.1.1 double-checking the recipient's email address for typos or",
    '550-5.1.1 unnecessary spaces. For more information, go to',
    `550 5.1.1  https://support.google.com/mail/?p=NoSuchUser ${id} - gsmtp`,
  ].join('\r\n'),
  mailboxFull: (_rcpt, id) => [
    '552-5.2.2 The recipient\'s inbox is out of storage space. Please direct the',
    `552 5.2.2 recipient to https://support.google.com/mail/?p=OverQuotaPerm ${id} - gsmtp`,
  ].join('\r\n'),
  mailboxDisabled: (_rcpt, id) => [
    '550-5.2.1 The email account that you tried to reach is disabled. For more',
    `550 5.2.1 information, go to https://support.google.com/mail/?p=DisabledUser ${id} - gsmtp`,
  ].join('\r\n'),
  quit: (_host, id) => `221 2.0.0 closing connection ${id} - gsmtp`,
};

const microsoft: TPersonaReplies = {
  ...postfix,
  banner: (_host, id) => `220 BN8NAM11FT${id.slice(0, 3)}.mail.protection.outlook.com Microsoft ESMTP MAIL Service ready at ${formatRfc2822Date(new Date())}`,
  ehlo: (_host, _helo, ip, offerTls) => [
    `BN8NAM11FT066.mail.protection.outlook.com Hello [${ip}]`, 'SIZE 157286400', 'PIPELINING', 'DSN', 'ENHANCEDSTATUSCODES',
    ...(offerTls ? ['STARTTLS'] : []), '8BITMIME', 'BINARYMIME', 'CHUNKING', 'SMTPUTF8',
  ],
  helo: (_host, _helo, ip) => `250 BN8NAM11FT066.mail.protection.outlook.com Hello [${ip}]`,
  mailOk: () => '250 2.1.0 Sender OK',
  rcptOk: () => '250 2.1.5 Recipient OK',
  userUnknown: (rcpt) => `550 5.5.0 Requested action not taken: mailbox unavailable (${rcpt})`,
  quit: () => '221 2.0.0 Service closing transmission channel',
};

const yahoo: TPersonaReplies = {
  ...postfix,
  banner: (host) => `220 ${host} ESMTP ready`,
  ehlo: (host, _helo, _ip, offerTls) => [host, 'PIPELINING', 'SIZE 41943040', '8BITMIME', ...(offerTls ? ['STARTTLS'] : [])],
  mailOk: (sender) => `250 sender <${sender}> ok`,
  rcptOk: (rcpt) => `250 recipient <${rcpt}> ok`,
  userUnknown: (rcpt, host) => `554 5.1.1 delivery error: dd This user doesn't have a yahoo.com account (${rcpt}) [0] - ${host}`,
  mailboxDisabled: (rcpt, host) => `554 5.2.1 delivery error: dd Sorry your message to ${rcpt} cannot be delivered. This mailbox is disabled (554.30). - ${host}`,
  quit: () => '221 Service Closing transmission',
};

const zoho: TPersonaReplies = {
  ...postfix,
  banner: () => `220 mx.zohomail.com SMTP Server ready ${formatRfc2822Date(new Date())}`,
  ehlo: (_host, helo, ip, offerTls) => [`mx.zohomail.com Hello ${helo} (${ip} (${ip}))`, ...(offerTls ? ['STARTTLS'] : []), 'SIZE 53477376', 'ENHANCEDSTATUSCODES', '8BITMIME'],
  helo: (_host, helo) => `250 mx.zohomail.com Hello ${helo}`,
  mailOk: (sender) => `250 2.1.0 Sender <${sender}> OK`,
  rcptOk: (rcpt) => `250 2.1.5 Recipient <${rcpt}> OK`,
  userUnknown: (rcpt) => `550 5.1.1 User does not exist - <${rcpt}>`,
  quit: () => '221 2.0.0 Closing connection',
};

const mailinator: TPersonaReplies = {
  ...postfix,
  banner: (host) => `220 ${host} ESMTP Mailinator`,
  ehlo: (host) => [host, 'SIZE 10240000', '8BITMIME', 'PIPELINING'],
  mailOk: () => '250 OK',
  rcptOk: () => '250 OK',
  quit: () => '221 Bye',
};

export const PERSONAS: Readonly<Record<TPersona, TPersonaReplies>> = { postfix, exim, google, microsoft, yahoo, zoho, mailinator };
