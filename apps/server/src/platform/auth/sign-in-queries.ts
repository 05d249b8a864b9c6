import { eq, sql } from 'drizzle-orm';
import { selectRows, type TDb } from '../db/database';
import { signInFailures, type TSignInRealm } from './tables';

/** Holds one e-mail's sign-in lock until the caller's transaction ends: concurrent tries of one e-mail queue here. */
export async function lockSignInEmail(tx: TDb, realm: TSignInRealm, email: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`sign-in:${realm}:${email}`}))`);
}

export async function countRecentSignInFailures(db: TDb, realm: TSignInRealm, email: string, minutes: number): Promise<number> {
  const rows = await selectRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from sign_in_failures
        where realm = ${realm} and email = ${email} and created_at > now() - make_interval(mins => ${minutes}::int)`,
  );
  return rows[0]?.n ?? 0;
}

export async function insertSignInFailure(db: TDb, realm: TSignInRealm, email: string): Promise<string> {
  const rows = await db.insert(signInFailures).values({ realm, email }).returning({ id: signInFailures.id });
  return rows[0]!.id;
}

export async function deleteSignInFailure(db: TDb, id: string): Promise<void> {
  await db.delete(signInFailures).where(eq(signInFailures.id, id));
}

/** Failures older than `minutes` are not counted any more: gone. Answers how many were deleted. */
export async function purgeSignInFailures(db: TDb, minutes: number): Promise<number> {
  const rows = await selectRows<{ id: string }>(db, sql`delete from sign_in_failures where created_at < now() - make_interval(mins => ${minutes}::int) returning id`);
  return rows.length;
}
