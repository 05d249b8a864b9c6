import { describe, expect, it } from 'vitest';
import { likePattern } from './list-store';
import { duplicateFileAnswer, toRunningListJob } from './list-views';

const since = new Date('2026-01-02T03:04:05.000Z');
const row = { id: 'l1', orgId: 'o1', userId: 'u1', name: 'leads', fileName: 'leads.csv', storageKey: 'k', state: 'in_progress', jobId: 'j1', plannedJobId: null, createdAt: since, updatedAt: since };
const shown = { feature: 'email_verifier', analyseKey: 'analyse', work: 'verify' as const, label: 'The list "leads"', size: '10 addresses', progress: () => 40, done: { verified: 4 } };

describe('the bulk-list kernel views', () => {
  it('escapes LIKE wildcards so a search matches its text literally', () => {
    expect(likePattern('50%_off\\')).toBe('%50\\%\\_off\\\\%');
  });

  it('says whether a file name was seen before, with the lists it made', () => {
    expect(duplicateFileAnswer('leads.csv', [])).toEqual({ is_duplicate: false, message: 'No file with this name was uploaded before', lists: [] });
    expect(duplicateFileAnswer('leads.csv', [{ id: 'l1', name: 'leads', createdAt: since }])).toEqual({
      is_duplicate: true,
      message: 'A file named "leads.csv" was already uploaded. Upload it again?',
      lists: [{ id: 'l1', name: 'leads', created_at: '2026-01-02T03:04:05.000Z' }],
    });
  });

  it('shows a list whose file is read as its analysis, without progress', () => {
    expect(toRunningListJob(row, { ...shown, analysis: 'in_progress' })).toEqual({
      key: 'analyse:l1',
      type: 'analyse',
      status: 'in_progress',
      progress: null,
      description: 'The list "leads"',
      metadata: { feature: 'email_verifier', list_id: 'l1', file_name: 'leads.csv' },
      since,
    });
  });

  it('keeps a started list queued until its plan job has split it, then shows its progress', () => {
    const queued = toRunningListJob(row, { ...shown, analysis: null });
    expect(queued).toMatchObject({ key: 'verify:l1', type: 'verify', status: 'queued', progress: null, description: 'The list "leads" (10 addresses)' });
    expect(queued.metadata).toEqual({ feature: 'email_verifier', list_id: 'l1', file_name: 'leads.csv', verified: 4 });
    expect(toRunningListJob({ ...row, plannedJobId: 'j1' }, { ...shown, analysis: null })).toMatchObject({ status: 'in_progress', progress: 40 });
  });
});
