// Reads a Postfix log (maillog_file) for the evidence the verifier's manners are judged on.

export type TPostfixLogSummary = {
  /** smtpd sessions ended (a `disconnect from` line each) */
  sessions: number;
  /** of those, ended by our QUIT (`quit=1`) */
  quitSessions: number;
  /** sessions smtpd cut: `too many errors after …` (smtpd_hard_error_limit) */
  tooManyErrors: number;
  /** sessions that lost their connection before QUIT (`lost connection after …`) */
  lostConnections: number;
  /** postscreen: `COMMAND COUNT LIMIT` (a client kept talking after its deep-test refusal) */
  commandCountLimit: number;
  /** postscreen sessions that ended with our QUIT (`DISCONNECT`) and without (`HANGUP`) */
  postscreenDisconnects: number;
  postscreenHangups: number;
  /**
   * Replies smtpd delayed by smtpd_error_sleep_time: each error reply after a session's error count reached
   * smtpd_soft_error_limit (10 by default) was held back by a second. Counted from each session's `disconnect from`
   * statistics (commands=ok/total: total − ok errors).
   */
  delayedReplies: number;
  /** sessions whose error count reached the soft limit */
  sessionsOverSoftLimit: number;
  /** the most errors one session made */
  maxErrorsInSession: number;
  /** rejected RCPTs (`reject: RCPT from`) */
  rejectedRcpts: number;
  /**
   * Queue files smtpd opened (a `QUEUEID: client=` line each): one per mail transaction with an accepted recipient,
   * created at that recipient and removed when the transaction is aborted. Each takes one of Postfix's flow-control
   * tokens; with `in_flow_delay` (1 s by default) a queue file opened when none is left waits that long.
   */
  queueFiles: number;
  /** the errors of each session that opened a mail transaction (`mail=1`), in the order the sessions ended */
  errorsPerMailSession: number[];
};

export function summarisePostfixLog(log: string, softErrorLimit = 10): TPostfixLogSummary {
  const out: TPostfixLogSummary = {
    sessions: 0,
    quitSessions: 0,
    tooManyErrors: 0,
    lostConnections: 0,
    commandCountLimit: 0,
    postscreenDisconnects: 0,
    postscreenHangups: 0,
    delayedReplies: 0,
    sessionsOverSoftLimit: 0,
    maxErrorsInSession: 0,
    rejectedRcpts: 0,
    queueFiles: 0,
    errorsPerMailSession: [],
  };
  for (const line of log.split('\n')) {
    if (/postfix\/smtpd\[\d+\]: disconnect from /.test(line)) {
      out.sessions++;
      if (/ quit=1\b/.test(line)) out.quitSessions++;
      const commands = / commands=(\d+)(?:\/(\d+))?/.exec(line);
      const ok = Number(commands?.[1] ?? 0);
      const total = Number(commands?.[2] ?? commands?.[1] ?? 0);
      const errors = total - ok;
      out.maxErrorsInSession = Math.max(out.maxErrorsInSession, errors);
      if (/ mail=\d/.test(line)) out.errorsPerMailSession.push(errors);
      if (errors >= softErrorLimit) {
        out.sessionsOverSoftLimit++;
        out.delayedReplies += errors - softErrorLimit + 1;
      }
    } else if (/too many errors after /.test(line)) out.tooManyErrors++;
    else if (/postfix\/smtpd\[\d+\]: lost connection after /.test(line)) out.lostConnections++;
    else if (/COMMAND COUNT LIMIT/.test(line)) out.commandCountLimit++;
    else if (/postfix\/postscreen\[\d+\]: DISCONNECT /.test(line)) out.postscreenDisconnects++;
    else if (/postfix\/postscreen\[\d+\]: HANGUP /.test(line)) out.postscreenHangups++;
    if (/reject: RCPT from /.test(line)) out.rejectedRcpts++;
    if (/postfix\/smtpd\[\d+\]: [0-9A-Za-z]+: client=/.test(line)) out.queueFiles++;
  }
  return out;
}
