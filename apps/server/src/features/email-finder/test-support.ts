import type { TConfig } from '../../config';
import { createTestApp, type TTestApp } from '../../test/test-app';
import { createEmailFinderJobs } from './jobs';

/**
 * Like createTestApp, with the finder's jobs (declared in src/runtime.ts) replaced by ones with the given
 * concurrency (through extraJobs).
 */
export async function createFinderTestApp(overrides: Partial<TConfig> = {}, opts: { concurrency?: number } = {}): Promise<TTestApp> {
  return createTestApp(overrides, {
    extraJobs: (deps) => createEmailFinderJobs({ ...deps, concurrency: opts.concurrency }),
  });
}
