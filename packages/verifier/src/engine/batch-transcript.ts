import type { TTranscriptSink } from '../smtp/smtp-session';

/** A request of a batch transaction, as far as its transcript goes: the address it asks about, its domain and its sink. */
export type TTranscriptOwner = { address: string; domain: string; sink: TTranscriptSink };

const RCPT = /^RCPT TO:<([^>]*)>/i;

const domainOf = (address: string): string => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

/**
 * The transcript sink of one SMTP transaction shared by several requests (which may be different customers'
 * calls): each request's transcript gets the session's own lines (MAIL FROM, RSET, their replies) and, of the
 * RCPT TO commands, only its own address's and its domain's (the random catch-all probe, the postmaster control),
 * each with its reply. A request never sees another request's address, and a batch of k requests writes k
 * transcripts of their own length instead of k copies of the whole transaction.
 *
 * Replies are matched to commands in order (RFC 2920: pipelined replies come back in the order of the commands);
 * a reply's continuation lines ("250-…") go with it, and its final line ("250 …") answers the command.
 */
export function batchTranscriptSink(owners: TTranscriptOwner[]): TTranscriptSink {
  if (owners.length === 1) return owners[0]!.sink;
  /** For each command still waiting for its reply: who may read it (null: every request). */
  const awaiting: Array<TTranscriptOwner[] | null> = [];
  const deliver = (to: TTranscriptOwner[] | null, direction: 'C' | 'S', line: string) => {
    for (const owner of to ?? owners) owner.sink(direction, line);
  };
  const readersOf = (command: string): TTranscriptOwner[] | null => {
    const rcpt = RCPT.exec(command);
    if (!rcpt) return null;
    const address = rcpt[1]!.toLowerCase();
    const own = owners.filter((o) => o.address.toLowerCase() === address);
    if (own.length > 0) return own;
    // no request's own address: the domain's random probe or postmaster control, read by the domain's requests
    const domain = domainOf(address);
    return owners.filter((o) => o.domain.toLowerCase() === domain);
  };
  return (direction, line) => {
    if (direction === 'C') {
      const readers = readersOf(line);
      awaiting.push(readers);
      deliver(readers, 'C', line);
      return;
    }
    // a line nobody asked for (a note of the session's own) goes to everyone
    const readers = awaiting.length > 0 ? awaiting[0]! : null;
    deliver(readers, 'S', line);
    if (awaiting.length > 0 && !/^\d{3}-/.test(line)) awaiting.shift();
  };
}
