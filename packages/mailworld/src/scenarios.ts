import type { TExpected, TMailboxState } from './types';

/** Which real server a host imitates: banner, EHLO keywords and reply wording. */
export type TPersona = 'postfix' | 'exim' | 'google' | 'microsoft' | 'yahoo' | 'zoho' | 'mailinator';

export type THostSpec = {
  name: string;
  persona: TPersona;
  /** false: the address is published in DNS but nothing listens there (connection refused) */
  listening: boolean;
  acceptAll?: boolean;
  greylist?: boolean;
  tarpit?: boolean;
  /** accepts the TCP connection and never sends a greeting */
  silent?: boolean;
  /** 550 5.7.1 to every RCPT */
  policyBlock?: boolean;
  /** 530 5.7.0 until STARTTLS is done */
  requireTls?: boolean;
  /** advertise STARTTLS in EHLO */
  offerTls?: boolean;
  /** 452 4.5.3 once a session has sent this many RCPT commands */
  rcptLimit?: number;
  /** a fixed delay before every reply, greeting included, in every preset (a slow host / tarpit that still answers) */
  commandDelayMs?: number;
  /**
   * postscreen-style: a client's first connection waits `postscreenPauseMs` for the greeting and gets
   * 450 4.3.2 to RCPT; once that has happened, the client (IP) is let through on its next connections
   */
  postscreen?: boolean;
  /** 421 4.7.0 as the greeting when the client (IP) already has this many connections open */
  maxConnsPerClient?: number;
  /**
   * Microsoft 365 directory-based edge blocking: `550 5.4.1 Recipient address rejected: Access denied` to every
   * recipient not in the tenant's directory, postmaster included (it is no mailbox at Exchange Online either)
   */
  accessDenied?: 'unknown';
  /** Exchange Online blocking the sender's IP: `550 5.7.606 Access denied, banned sending IP` to MAIL FROM */
  senderBlocked?: boolean;
  /** greylisting lasts at least this long on this host, whatever the world's greylistDelayMs */
  greylistMinMs?: number;
};

export type TDomainSpec = {
  domain: string;
  scenario: string;
  description: string;
  mx?: { preference: number; host: string }[];
  nullMx?: boolean;
  /** A record of the domain itself, pointing at this host's address */
  aHost?: string;
  rcode?: 'NXDOMAIN' | 'SERVFAIL';
  /** directory: recipients checked against the mailbox list; accept_all: any recipient accepted */
  mailbox: 'directory' | 'accept_all' | 'none';
  /** the verdict for every address of the domain, when it does not depend on the local part */
  fixed?: TExpected;
  tags?: string[];
  /** its hosts do not offer SMTPUTF8: an address with a UTF-8 local part cannot be checked (nor delivered) there */
  noSmtpUtf8?: boolean;
  /** added for the realistic world: only `makeRealisticCorpus` draws addresses from it */
  realistic?: boolean;
};

export const HOSTS: readonly THostSpec[] = [
  { name: 'mx.strict.test', persona: 'postfix', listening: true, offerTls: true },
  { name: 'mx.acceptall.test', persona: 'exim', listening: true, acceptAll: true },
  { name: 'mx.greylist.test', persona: 'postfix', listening: true, greylist: true, offerTls: true },
  { name: 'mx.tarpit.test', persona: 'postfix', listening: true, tarpit: true },
  { name: 'mx.timeout.test', persona: 'postfix', listening: true, silent: true },
  { name: 'mx.refused.test', persona: 'postfix', listening: false },
  { name: 'mx.policy.test', persona: 'postfix', listening: true, policyBlock: true, offerTls: true },
  { name: 'mx.fullbox.test', persona: 'postfix', listening: true, offerTls: true },
  { name: 'mx.disabled.test', persona: 'postfix', listening: true, offerTls: true },
  { name: 'mx.starttls.test', persona: 'postfix', listening: true, requireTls: true, offerTls: true },
  { name: 'mx.ratelimit.test', persona: 'postfix', listening: true, rcptLimit: 3, offerTls: true },
  { name: 'mx1.backupmx.test', persona: 'postfix', listening: false },
  { name: 'mx2.backupmx.test', persona: 'postfix', listening: true, offerTls: true },
  { name: 'aonly.test', persona: 'postfix', listening: true },
  { name: 'nullmx.test', persona: 'postfix', listening: false },
  { name: 'gmail-smtp-in.l.google.com', persona: 'google', listening: true, offerTls: true },
  { name: 'alt1.gmail-smtp-in.l.google.com', persona: 'google', listening: true, offerTls: true },
  { name: 'alt2.gmail-smtp-in.l.google.com', persona: 'google', listening: true, offerTls: true },
  { name: 'alt3.gmail-smtp-in.l.google.com', persona: 'google', listening: true, offerTls: true },
  { name: 'alt4.gmail-smtp-in.l.google.com', persona: 'google', listening: true, offerTls: true },
  { name: 'aspmx.l.google.com', persona: 'google', listening: true, offerTls: true },
  { name: 'alt1.aspmx.l.google.com', persona: 'google', listening: true, offerTls: true },
  { name: 'outlook-com.mail.protection.outlook.com', persona: 'microsoft', listening: true, acceptAll: true, offerTls: true },
  { name: 'm365-test.mail.protection.outlook.com', persona: 'microsoft', listening: true, acceptAll: true, offerTls: true },
  { name: 'contoso-test.mail.protection.outlook.com', persona: 'microsoft', listening: true, acceptAll: true, offerTls: true },
  { name: 'mta5.am0.yahoodns.net', persona: 'yahoo', listening: true, offerTls: true },
  { name: 'mta6.am0.yahoodns.net', persona: 'yahoo', listening: true, offerTls: true },
  { name: 'mta7.am0.yahoodns.net', persona: 'yahoo', listening: true, offerTls: true },
  { name: 'mx.zoho.com', persona: 'zoho', listening: true, offerTls: true },
  { name: 'mx2.zoho.com', persona: 'zoho', listening: true, offerTls: true },
  { name: 'mx3.zoho.com', persona: 'zoho', listening: true, offerTls: true },
  { name: 'mail.mailinator.com', persona: 'mailinator', listening: true, acceptAll: true },
  { name: 'mail2.mailinator.com', persona: 'mailinator', listening: true, acceptAll: true },
  { name: 'mx.initech.test', persona: 'postfix', listening: true, offerTls: true },
  { name: 'mx.umbrella.test', persona: 'exim', listening: true, acceptAll: true },
  // realistic-world scenarios (they exist in every world; only the realistic corpus uses them)
  { name: 'mx.postscreen.test', persona: 'postfix', listening: true, postscreen: true, offerTls: true },
  { name: 'mx.busy.test', persona: 'postfix', listening: true, maxConnsPerClient: 3 },
  { name: 'mx.crowded.test', persona: 'postfix', listening: true, maxConnsPerClient: 2 },
  { name: 'fabrikam-test.mail.protection.outlook.com', persona: 'microsoft', listening: true, accessDenied: 'unknown', offerTls: true },
  { name: 'northwind-test.mail.protection.outlook.com', persona: 'microsoft', listening: true, senderBlocked: true, offerTls: true },
  { name: 'mx.slowpoke.test', persona: 'postfix', listening: true, commandDelayMs: 700 },
  { name: 'mx.greylist5.test', persona: 'postfix', listening: true, greylist: true, greylistMinMs: 300_000 },
  { name: 'mx.oldschool.test', persona: 'exim', listening: true },
];

const GMAIL_MX = [
  { preference: 5, host: 'gmail-smtp-in.l.google.com' },
  { preference: 10, host: 'alt1.gmail-smtp-in.l.google.com' },
  { preference: 20, host: 'alt2.gmail-smtp-in.l.google.com' },
  { preference: 30, host: 'alt3.gmail-smtp-in.l.google.com' },
  { preference: 40, host: 'alt4.gmail-smtp-in.l.google.com' },
];

const only = (host: string, preference = 10) => [{ preference, host }];
const fixed = (status: TExpected['status'], reason: string): TExpected => ({ status, reason });

export const DOMAINS: readonly TDomainSpec[] = [
  { domain: 'strict.test', scenario: 'strict', mailbox: 'directory', mx: only('mx.strict.test'),
    description: 'Postfix; 550 5.1.1 for unknown users, 250 for listed mailboxes' },
  { domain: 'acceptall.test', scenario: 'acceptall', mailbox: 'accept_all', mx: only('mx.acceptall.test'),
    description: 'Exim; accepts every recipient (catch-all)' },
  { domain: 'greylist.test', scenario: 'greylist', mailbox: 'directory', mx: only('mx.greylist.test'),
    description: '451 4.7.1 for a new (client IP, MAIL FROM, RCPT TO) triplet until greylistDelayMs has passed, then strict' },
  { domain: 'tarpit.test', scenario: 'tarpit', mailbox: 'directory', mx: only('mx.tarpit.test'),
    fixed: fixed('unknown', 'smtp_timeout'), description: 'every reply (greeting included) delayed by tarpitDelayMs' },
  { domain: 'timeout.test', scenario: 'timeout', mailbox: 'none', mx: only('mx.timeout.test'),
    fixed: fixed('unknown', 'smtp_timeout'), description: 'accepts TCP, never sends a greeting' },
  { domain: 'refused.test', scenario: 'refused', mailbox: 'none', mx: only('mx.refused.test'),
    fixed: fixed('unknown', 'connection_failed'), description: 'MX address where nothing listens (connection refused)' },
  { domain: 'policy.test', scenario: 'policy', mailbox: 'none', mx: only('mx.policy.test'),
    fixed: fixed('unknown', 'verifier_blocked'), description: '550 5.7.1 blocklist rejection to every RCPT' },
  { domain: 'fullbox.test', scenario: 'fullbox', mailbox: 'directory', mx: only('mx.fullbox.test'),
    description: '552 5.2.2 for listed full mailboxes, strict otherwise' },
  { domain: 'disabled.test', scenario: 'disabled', mailbox: 'directory', mx: only('mx.disabled.test'),
    description: '550 5.2.1 for listed disabled accounts, strict otherwise' },
  { domain: 'starttls.test', scenario: 'starttls', mailbox: 'directory', mx: only('mx.starttls.test'),
    description: '530 5.7.0 to MAIL/RCPT until STARTTLS is done (self-signed certificate), then strict' },
  { domain: 'ratelimit.test', scenario: 'ratelimit', mailbox: 'directory', mx: only('mx.ratelimit.test'),
    description: '452 4.5.3 from the 4th RCPT of a session on; strict for the first 3' },
  { domain: 'backupmx.test', scenario: 'backupmx', mailbox: 'directory',
    mx: [{ preference: 10, host: 'mx1.backupmx.test' }, { preference: 20, host: 'mx2.backupmx.test' }],
    description: 'preference-10 MX refuses connections, preference-20 MX works (strict)' },
  { domain: 'aonly.test', scenario: 'aonly', mailbox: 'directory', aHost: 'aonly.test',
    description: 'no MX; the A record host runs a strict SMTP server' },
  { domain: 'nullmx.test', scenario: 'nullmx', mailbox: 'none', nullMx: true, aHost: 'nullmx.test',
    fixed: fixed('invalid', 'null_mx'), description: '"MX 0 ." (RFC 7505); has a web A record' },
  { domain: 'nomail.test', scenario: 'nomail', mailbox: 'none',
    fixed: fixed('invalid', 'no_mail_server'), description: 'domain exists (TXT) but has no MX and no A/AAAA' },
  { domain: 'nxdomain.test', scenario: 'nxdomain', mailbox: 'none', rcode: 'NXDOMAIN',
    fixed: fixed('invalid', 'domain_not_found'), description: 'NXDOMAIN' },
  { domain: 'servfail.test', scenario: 'servfail', mailbox: 'none', rcode: 'SERVFAIL',
    fixed: fixed('unknown', 'dns_error'), description: 'SERVFAIL for every query' },
  { domain: 'gmail.com', scenario: 'gmail', mailbox: 'directory', mx: GMAIL_MX, tags: ['free'],
    description: 'Google look-alike (gmail-smtp-in.l.google.com …); strict; free provider' },
  { domain: 'outlook.com', scenario: 'outlook', mailbox: 'accept_all', mx: only('outlook-com.mail.protection.outlook.com', 5),
    tags: ['free'], description: 'Microsoft look-alike; accepts any recipient at RCPT time (catch-all); free provider' },
  { domain: 'm365.test', scenario: 'm365', mailbox: 'accept_all', mx: only('m365-test.mail.protection.outlook.com', 0),
    description: 'Microsoft 365 tenant look-alike; accepts any recipient at RCPT time (catch-all)' },
  { domain: 'yahoo.com', scenario: 'yahoo', mailbox: 'directory', tags: ['free'],
    mx: [1, 1, 1].map((preference, i) => ({ preference, host: `mta${i + 5}.am0.yahoodns.net` })),
    description: 'Yahoo look-alike (mta5.am0.yahoodns.net …); strict; free provider' },
  { domain: 'zoho.test', scenario: 'zoho', mailbox: 'directory',
    mx: [{ preference: 10, host: 'mx.zoho.com' }, { preference: 20, host: 'mx2.zoho.com' }, { preference: 50, host: 'mx3.zoho.com' }],
    description: 'Zoho look-alike (mx.zoho.com); strict' },
  { domain: 'mailinator.com', scenario: 'disposable', mailbox: 'accept_all', tags: ['disposable'],
    mx: [{ preference: 1, host: 'mail.mailinator.com' }, { preference: 1, host: 'mail2.mailinator.com' }],
    description: 'disposable provider; accepts every recipient' },
  { domain: 'globex.test', scenario: 'workspace', mailbox: 'directory',
    mx: [{ preference: 1, host: 'aspmx.l.google.com' }, { preference: 5, host: 'alt1.aspmx.l.google.com' }],
    description: 'company on Google Workspace (aspmx.l.google.com); strict' },
  { domain: 'contoso.test', scenario: 'm365', mailbox: 'accept_all', mx: only('contoso-test.mail.protection.outlook.com', 0),
    description: 'company on Microsoft 365; catch-all at RCPT time' },
  { domain: 'initech.test', scenario: 'strict', mailbox: 'directory', mx: only('mx.initech.test'),
    description: 'company on its own Postfix; strict' },
  { domain: 'umbrella.test', scenario: 'acceptall', mailbox: 'accept_all', mx: only('mx.umbrella.test'),
    description: 'company on Exim with a catch-all mailbox' },
  { domain: 'postscreen.test', scenario: 'postscreen', mailbox: 'directory', mx: only('mx.postscreen.test'), realistic: true,
    description: 'postscreen: long greeting pause and 450 4.3.2 to RCPT on a client\'s first connection, normal (strict) from the next one' },
  { domain: 'busy.test', scenario: 'busy', mailbox: 'directory', mx: only('mx.busy.test'), realistic: true,
    description: '421 4.7.0 greeting on a 4th concurrent connection from one IP; strict otherwise' },
  { domain: 'crowded.test', scenario: 'crowded', mailbox: 'directory', mx: only('mx.crowded.test'), realistic: true,
    description: '421 4.7.0 greeting on a 3rd concurrent connection from one IP; strict otherwise' },
  { domain: 'fabrikam.test', scenario: 'm365edge', mailbox: 'directory', mx: only('fabrikam-test.mail.protection.outlook.com', 0), realistic: true,
    description: 'Microsoft 365 tenant with directory-based edge blocking: 550 5.4.1 Access denied after an accepted MAIL FROM to every recipient not in its directory (postmaster too), 250 to real ones' },
  { domain: 'northwind.test', scenario: 'm365block', mailbox: 'none', mx: only('northwind-test.mail.protection.outlook.com', 0), realistic: true,
    fixed: fixed('unknown', 'verifier_blocked'), description: 'Microsoft 365 tenant blocking the sender: 550 5.7.606 Access denied, banned sending IP to MAIL FROM' },
  { domain: 'slowpoke.test', scenario: 'slowpoke', mailbox: 'directory', mx: only('mx.slowpoke.test'), realistic: true,
    description: 'tarpit that still answers: 700 ms before every reply (greeting included); strict' },
  { domain: 'greylist5.test', scenario: 'greylist5', mailbox: 'directory', mx: only('mx.greylist5.test'), realistic: true,
    description: 'greylisting with a 5-minute minimum (451 4.7.1 until 300 s after the triplet was first seen), then strict' },
  { domain: 'oldschool.test', scenario: 'oldschool', mailbox: 'directory', mx: only('mx.oldschool.test'), realistic: true, noSmtpUtf8: true,
    description: 'Exim without SMTPUTF8: strict for ASCII addresses; a UTF-8 local part cannot be sent there (RFC 6531)' },
  ...['gmial.com', 'gmai.com', 'gnail.com', 'yaho.com', 'yahooo.com', 'hotmial.com', 'outlok.com'].map(
    (domain): TDomainSpec => ({ domain, scenario: 'typo', mailbox: 'none', rcode: 'NXDOMAIN', tags: ['typo'],
      fixed: fixed('invalid', 'domain_not_found'), description: 'typo of a free provider; NXDOMAIN' }),
  ),
];

/** Mailboxes that always exist in a world (the corpus adds more). */
export const BUILTIN_MAILBOXES: Readonly<Record<string, Readonly<Record<string, TMailboxState>>>> = {
  'strict.test': { alice: 'active', 'bob.jones': 'active', 'john.smith': 'active', info: 'active', sales: 'active', postmaster: 'active' },
  'greylist.test': { carol: 'active', 'carol.white': 'active', postmaster: 'active' },
  'tarpit.test': { dave: 'active', postmaster: 'active' },
  'fullbox.test': { heidi: 'full', 'heidi.klum': 'full', ivan: 'active', postmaster: 'active' },
  'disabled.test': { judy: 'disabled', 'former.employee': 'disabled', ken: 'active', postmaster: 'active' },
  'starttls.test': { laura: 'active', 'laura.palmer': 'active', postmaster: 'active' },
  'ratelimit.test': { r1: 'active', r2: 'active', r3: 'active', r4: 'active', r5: 'active', postmaster: 'active' },
  'backupmx.test': { niaj: 'active', postmaster: 'active' },
  'aonly.test': { olivia: 'active', postmaster: 'active' },
  'gmail.com': { 'john.smith': 'active', 'jane.doe': 'active', mikebrown1987: 'active' },
  'yahoo.com': { 'mike.brown': 'active', sarah_lee: 'active' },
  'zoho.test': { trent: 'active', 'trent.walker': 'active', postmaster: 'active' },
  'globex.test': { hank: 'active', 'hank.scorpio': 'active', postmaster: 'active' },
  'initech.test': { peter: 'active', 'bill.lumbergh': 'active', postmaster: 'active' },
  'postscreen.test': { paula: 'active', postmaster: 'active' },
  'busy.test': { bea: 'active', 'bea.busy': 'active', postmaster: 'active' },
  'crowded.test': { cleo: 'active', 'cleo.crowd': 'active', postmaster: 'active' },
  'fabrikam.test': { 'jane.doe': 'active', ceo: 'active' },
  'slowpoke.test': { sam: 'active', postmaster: 'active' },
  'greylist5.test': { gina: 'active', postmaster: 'active' },
  'oldschool.test': { otto: 'active', 'josé': 'active', postmaster: 'active' },
};

/** A few addresses per scenario, shown in the README and used by tests; verdicts follow from the tables above. */
export const SCENARIO_EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  strict: ['alice@strict.test', 'john.smith@strict.test', 'no.such.user@strict.test', 'peter@initech.test'],
  role: ['info@strict.test', 'sales@strict.test'],
  acceptall: ['anyone@acceptall.test', 'xkqzvbn@acceptall.test', 'jobs@umbrella.test'],
  greylist: ['carol@greylist.test', 'ghost@greylist.test'],
  tarpit: ['dave@tarpit.test'],
  timeout: ['erin@timeout.test'],
  refused: ['frank@refused.test'],
  policy: ['grace@policy.test'],
  fullbox: ['heidi@fullbox.test', 'ivan@fullbox.test', 'nobody@fullbox.test'],
  disabled: ['judy@disabled.test', 'ken@disabled.test', 'nobody@disabled.test'],
  starttls: ['laura@starttls.test', 'missing@starttls.test'],
  ratelimit: ['r1@ratelimit.test', 'r2@ratelimit.test', 'r3@ratelimit.test', 'r4@ratelimit.test', 'r5@ratelimit.test', 'nobody@ratelimit.test'],
  backupmx: ['niaj@backupmx.test', 'nobody@backupmx.test'],
  aonly: ['olivia@aonly.test', 'nobody@aonly.test'],
  nullmx: ['peggy@nullmx.test'],
  nomail: ['quentin@nomail.test'],
  nxdomain: ['rupert@nxdomain.test'],
  servfail: ['sybil@servfail.test'],
  gmail: ['john.smith@gmail.com', 'jane.doe@gmail.com', 'xkqzvbn.qwop@gmail.com'],
  outlook: ['jane.doe@outlook.com', 'qwzxkvbp@outlook.com'],
  m365: ['ceo@m365.test', 'victor@contoso.test'],
  yahoo: ['mike.brown@yahoo.com', 'nobody.here.1999@yahoo.com'],
  zoho: ['trent@zoho.test', 'nobody@zoho.test'],
  workspace: ['hank@globex.test', 'nobody@globex.test'],
  disposable: ['temp123@mailinator.com', 'throwaway.x1@mailinator.com'],
  typo: ['john.smith@gmial.com', 'mike.brown@yaho.com', 'jane.doe@hotmial.com'],
  syntax: ['john..smith@strict.test', 'plainaddress', 'a@b@strict.test', 'jane doe@strict.test'],
  postscreen: ['paula@postscreen.test', 'nobody@postscreen.test'],
  busy: ['bea@busy.test', 'nobody@busy.test'],
  crowded: ['cleo@crowded.test', 'nobody@crowded.test'],
  m365edge: ['jane.doe@fabrikam.test', 'no.such.person@fabrikam.test'],
  m365block: ['ceo@northwind.test'],
  slowpoke: ['sam@slowpoke.test', 'nobody@slowpoke.test'],
  greylist5: ['gina@greylist5.test', 'nobody@greylist5.test'],
  oldschool: ['otto@oldschool.test', 'josé@oldschool.test'],
};

export const DOMAIN_BY_NAME: ReadonlyMap<string, TDomainSpec> = new Map(DOMAINS.map((d) => [d.domain, d]));
export const HOST_BY_NAME: ReadonlyMap<string, THostSpec> = new Map(HOSTS.map((h) => [h.name, h]));
