import { describe, expect, it } from 'vitest';
import { batchTranscriptSink } from './batch-transcript';

function owner(address: string) {
  const lines: string[] = [];
  return { address, domain: address.split('@')[1]!, sink: (d: 'C' | 'S', l: string) => void lines.push(`${d} ${l}`), lines };
}

describe('batchTranscriptSink', () => {
  it('gives each request the shared lines, its own recipient and its domain probe with their replies (multi-line replies whole)', () => {
    const ann = owner('ann@a.test');
    const bob = owner('bob@a.test');
    const cyd = owner('cyd@c.test');
    const sink = batchTranscriptSink([ann, bob, cyd]);
    for (const c of ['MAIL FROM:<probe@v.test>', 'RCPT TO:<ann@a.test>', 'RCPT TO:<xq7r2@a.test>', 'RCPT TO:<bob@a.test>', 'RCPT TO:<cyd@c.test>']) sink('C', c);
    for (const r of ['250 2.1.0 Ok', '250 2.1.5 Ok', '550-5.1.1 No such user', '550 5.1.1 see the docs', '550 5.1.1 User unknown', '250 2.1.5 Ok']) sink('S', r);
    sink('C', 'RSET');
    sink('S', '250 2.0.0 Ok');
    expect(ann.lines).toEqual(['C MAIL FROM:<probe@v.test>', 'C RCPT TO:<ann@a.test>', 'C RCPT TO:<xq7r2@a.test>', 'S 250 2.1.0 Ok', 'S 250 2.1.5 Ok', 'S 550-5.1.1 No such user', 'S 550 5.1.1 see the docs', 'C RSET', 'S 250 2.0.0 Ok']);
    expect(bob.lines).toEqual(['C MAIL FROM:<probe@v.test>', 'C RCPT TO:<xq7r2@a.test>', 'C RCPT TO:<bob@a.test>', 'S 250 2.1.0 Ok', 'S 550-5.1.1 No such user', 'S 550 5.1.1 see the docs', 'S 550 5.1.1 User unknown', 'C RSET', 'S 250 2.0.0 Ok']);
    expect(cyd.lines).toEqual(['C MAIL FROM:<probe@v.test>', 'C RCPT TO:<cyd@c.test>', 'S 250 2.1.0 Ok', 'S 250 2.1.5 Ok', 'C RSET', 'S 250 2.0.0 Ok']);
  });

  it('is the request’s own sink when it is alone in the transaction', () => {
    const ann = owner('ann@a.test');
    expect(batchTranscriptSink([ann])).toBe(ann.sink);
  });
});
