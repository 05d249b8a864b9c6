import { describe, expect, it } from 'vitest';
import { summarisePostfixLog } from './postfix-log';

// lines as stock Postfix 3.7 writes them (maillog_file), from one of the test world's instances
const SESSION = `Nov 29 14:06:22 mx postfix/smtpd[19099]: connect from localhost[127.0.0.1]
Nov 29 14:06:22 mx postfix/smtpd[19099]: NOQUEUE: reject: RCPT from localhost[127.0.0.1]: 550 5.1.1 <ghost@x.test>: Recipient address rejected: User unknown in virtual mailbox table; from=<b@verilead.test> to=<ghost@x.test> proto=ESMTP helo=<c.test>
Nov 29 14:06:22 mx postfix/smtpd[19099]: 287F720C471: client=localhost[127.0.0.1]
Nov 29 14:06:22 mx postfix/smtpd[19099]: disconnect from localhost[127.0.0.1] ehlo=1 mail=1 rcpt=1/2 quit=1 commands=4/5
`;
const REFUSED_ONLY = `Nov 29 14:06:23 mx postfix/smtpd[19099]: connect from localhost[127.0.0.1]
Nov 29 14:06:23 mx postfix/smtpd[19099]: NOQUEUE: reject: RCPT from localhost[127.0.0.1]: 550 5.1.1 <ghost2@x.test>: Recipient address rejected: User unknown in virtual mailbox table; from=<b@verilead.test> to=<ghost2@x.test> proto=ESMTP helo=<c.test>
Nov 29 14:06:23 mx postfix/smtpd[19099]: disconnect from localhost[127.0.0.1] ehlo=1 mail=1 rcpt=0/1 quit=1 commands=3/4
`;

describe('summarisePostfixLog', () => {
  it('counts a queue file for each transaction with an accepted recipient, none for one whose recipients were all refused', () => {
    const s = summarisePostfixLog(SESSION + REFUSED_ONLY);
    expect(s).toMatchObject({ sessions: 2, quitSessions: 2, rejectedRcpts: 2, queueFiles: 1, maxErrorsInSession: 1, delayedReplies: 0 });
    expect(s.errorsPerMailSession).toEqual([1, 1]);
  });
});
