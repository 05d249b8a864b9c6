import { formatZonedDateTime, type TActivitiesDownloadData, type TDownload, type ZActivitiesDownloadRequest } from '@verilead/contracts';
import type { z } from 'zod';
import type { TDb } from '../../platform/db/database';
import type { TDeps } from '../../platform/deps';
import type { TCallerContext } from '../../platform/tenancy/context';
import { selectUserTimeZone } from '../../platform/tenancy/time-zone';
import { listActivities } from '../activities';
import { toDownloadView } from './download-view';
import type { TExportContent } from './export-source';
import { insertDownload, updateDownload, type TDownloadRow } from './queries';
import { EXPORT_JOB } from './service';

// ---------- activity log export ----------

type TActivityParams = { type?: string | string[]; from?: string; to?: string; role: TCallerContext['role'] };

function activityQuery(p: TActivityParams, page: number, limit: number) {
  return { type: p.type, from: p.from, to: p.to, page, limit } as Parameters<typeof listActivities>[2];
}

async function* activityRows(exec: TDb, d: TDownloadRow, counter: { rows: number }) {
  const p = d.params as TActivityParams;
  const ctx: TCallerContext = { userId: d.userId, orgId: d.orgId, role: p.role, sessionId: null, via: 'session' };
  // Times as the file's owner sees them: their time zone setting, with its offset.
  const timeZone = await selectUserTimeZone(exec, d.userId);
  yield ['created_at', 'type', 'description'];
  for (let page = 1; ; page += 1) {
    const res = await listActivities(exec, ctx, activityQuery(p, page, 500));
    for (const item of res.items) {
      counter.rows += 1;
      yield [formatZonedDateTime(new Date(item.created_at), timeZone), item.type, item.description];
    }
    if (res.items.length < 500) return;
  }
}

/** POST /download/activities: how many rows an activity export would hold. */
export async function countActivityDownload(exec: TDb, ctx: TCallerContext, input: z.output<typeof ZActivitiesDownloadRequest>): Promise<TActivitiesDownloadData> {
  const res = await listActivities(exec, ctx, activityQuery({ ...input, role: ctx.role }, 1, 25));
  return { rows: res.total, message: res.total > 0 ? `${res.total} activities will be exported` : 'No activities match these filters' };
}

/** POST /download/activities/confirm: prepares the activity file in a job. */
export async function requestActivityDownload(deps: TDeps, ctx: TCallerContext, input: z.output<typeof ZActivitiesDownloadRequest>): Promise<TDownload> {
  await countActivityDownload(deps.database.db, ctx, input);
  const row = await deps.database.transaction(async (tx) => {
    const d = await insertDownload(tx, {
      orgId: ctx.orgId,
      userId: ctx.userId,
      kind: 'activities',
      listId: null,
      format: null,
      fileType: input.file_type,
      columns: [],
      params: { type: input.type, from: input.from, to: input.to, role: ctx.role },
      state: 'queued',
      fileName: `activities.${input.file_type}`,
    });
    const jobId = await deps.queue.enqueue(EXPORT_JOB, { downloadId: d.id }, { tx, orgId: ctx.orgId, userId: ctx.userId, maxAttempts: 3 });
    await updateDownload(tx, d.id, { jobId });
    return d;
  });
  return toDownloadView(deps.config.appSecret, row);
}

/** The export job's content of an activity log file. */
export async function activityExportContent(exec: TDb, _storage: unknown, d: TDownloadRow, counter: { rows: number }): Promise<TExportContent> {
  return { rows: activityRows(exec, d, counter) };
}
