import { applyPriceConfig, readPriceConfig, ZPriceConfig, type TPriceConfig } from '../billing';
import type { TDatabase } from '../../platform/db/database';
import { AppError } from '../../platform/errors/app-error';
import type { TOperatorCaller } from './guard';
import { recordOperatorAction } from './record-action';

/** The prices in force, in the shape of the pricing file (`npm run ops -- pricing --file`). */
export function getPricing(deps: { database: TDatabase }): Promise<TPriceConfig> {
  return readPriceConfig(deps.database);
}

/**
 * Applies an edited price file (the same schema and code as `npm run ops -- pricing`). Invalid content answers 400 with
 * one reason per wrong field, named by its path (`plans.1.price`).
 */
export async function updatePricing(deps: { database: TDatabase }, operator: TOperatorCaller, raw: unknown) {
  const parsed = ZPriceConfig.safeParse(raw);
  if (!parsed.success) {
    const reasons = parsed.error.issues.map((issue) => ({ field: issue.path.join('.') || 'config', location: 'body' as const, messages: [`${issue.path.join('.') || 'config'}: ${issue.message}`] }));
    throw new AppError('validation_failed', 'The prices are not valid: see the listed fields.', { reasons });
  }
  // The change and its log entry in one transaction: both or neither.
  const applied = await applyPriceConfig(deps.database, parsed.data, (tx, done) =>
    recordOperatorAction(tx, operator, { action: 'operator.pricing_changed', orgId: null, targetType: 'pricing', details: done }),
  );
  return { applied, config: await readPriceConfig(deps.database) };
}
