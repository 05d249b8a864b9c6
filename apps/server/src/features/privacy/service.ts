import type { TDataRetention, TDataRetentionUpdateRequest, TDownload, TOrganisationDeleteRequest } from '@verilead/contracts';
import type { TDeps } from '../../platform/deps';
import { AppError } from '../../platform/errors/app-error';
import type { TFileStorage } from '../../platform/storage/storage';
import type { TCallerContext } from '../../platform/tenancy/context';
import { requirePassword } from '../account';
import { recordActivity } from '../activities';
import { queueExportDownload, type TExportSource } from '../downloads';
import { organisationArchiveLines } from './archive';
import { deleteOrganisationData } from './delete-organisation';
import { selectOrganisationName, selectOrganisationRetention, updateOrganisationRetention } from './queries';

/** GET /user_preferences/data_retention: how long the organisation keeps files and results. */
export async function getDataRetention(deps: TDeps, ctx: TCallerContext): Promise<TDataRetention> {
  const org = await selectOrganisationRetention(deps.database.db, ctx.orgId);
  if (!org) throw new AppError('not_found', 'Organisation not found');
  return { file_retention_days: org.file, result_retention_days: org.result, organisation_name: org.name };
}

/** PUT /user_preferences/data_retention: the owner's choice, applied by the next maintenance run. */
export async function updateDataRetention(deps: TDeps, ctx: TCallerContext, input: TDataRetentionUpdateRequest): Promise<TDataRetention> {
  await deps.database.transaction(async (tx) => {
    await updateOrganisationRetention(tx, ctx.orgId, { fileRetentionDays: input.file_retention_days, resultRetentionDays: input.result_retention_days });
    await recordActivity(tx, { orgId: ctx.orgId, userId: ctx.userId, type: 'profile_update', description: 'Updated the data retention', metadata: { ...input } });
  });
  return getDataRetention(deps, ctx);
}

/** POST /user_preferences/data_export: queues the archive of everything the organisation holds (JSON lines). */
export async function requestOrganisationExport(deps: TDeps, ctx: TCallerContext): Promise<TDownload> {
  return queueExportDownload(deps, {
    orgId: ctx.orgId,
    userId: ctx.userId,
    kind: 'organisation_data',
    listId: null,
    format: null,
    fileType: 'jsonl',
    columns: [],
    params: {},
    state: 'queued',
    fileName: 'organisation-data.jsonl',
  });
}

/** POST /user_preferences/organisation/delete: the owner deletes the organisation, its rows and its files, for good. */
export async function deleteOrganisation(deps: TDeps, storage: TFileStorage, ctx: TCallerContext, input: TOrganisationDeleteRequest) {
  await requirePassword(deps.database.db, ctx.userId, input.password, 'password');
  const name = await selectOrganisationName(deps.database.db, ctx.orgId);
  if (name === undefined) throw new AppError('not_found', 'Organisation not found');
  if (name.trim().toLowerCase() !== input.organisation_name.trim().toLowerCase()) {
    throw new AppError('validation_failed', 'Type the organisation name exactly to confirm', {
      reasons: [{ field: 'organisation_name', location: 'body', messages: ['This is not the organisation name'] }],
    });
  }
  await deleteOrganisationData(deps.database, storage, ctx.orgId);
  return { message: 'The organisation and all its data have been deleted' };
}

/** The downloads export job's source for the organisation's archive (the composition root hands it to the job). */
export const organisationExportSource: TExportSource = async (exec, _storage, d, counter) => ({ lines: organisationArchiveLines(exec, d.orgId, counter) });
