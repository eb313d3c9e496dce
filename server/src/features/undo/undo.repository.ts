import { sql, type Selectable } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { UndoEntriesTable } from '../../platform/db/schema.js';

export type UndoEntryRow = Selectable<UndoEntriesTable>;

export type NewUndoEntry = {
  organizationId: string;
  userId: number;
  kind: string;
  targetId: string;
  version: number;
  before: Record<string, unknown>;
  windowMs: number;
};

/** Stores an entry that lasts windowMs from now (the database's clock, the one the claim compares with). */
export function insertUndoEntry(db: Executor, e: NewUndoEntry): Promise<Pick<UndoEntryRow, 'id' | 'expiresAt'>> {
  return db
    .insertInto('undoEntries')
    .values({
      organizationId: e.organizationId,
      userId: e.userId,
      kind: e.kind,
      targetId: e.targetId,
      version: e.version,
      before: JSON.stringify(e.before),
      expiresAt: sql<Date>`now() + make_interval(secs => ${e.windowMs / 1000})`,
    })
    .returning(['id', 'expiresAt'])
    .executeTakeFirstOrThrow();
}

/**
 * Removes the user's entries that expired more than an hour ago. The margin keeps this sweep away from rows an
 * undo in progress holds (a claim only takes entries that have not expired yet).
 */
export async function sweepExpiredEntries(db: Executor, userId: number): Promise<void> {
  await db
    .deleteFrom('undoEntries')
    .where('userId', '=', userId)
    .where('expiresAt', '<', sql<Date>`now() - interval '1 hour'`)
    .execute();
}

export function findUndoEntry(db: Executor, organizationId: string, id: string): Promise<UndoEntryRow | undefined> {
  return db.selectFrom('undoEntries').selectAll().where('organizationId', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

/**
 * Marks the entry used, if it is still unused and unexpired. One statement: of two concurrent claims the second
 * waits for the first's row lock, then finds used_at set (or, if the first rolled back, claims it itself).
 */
export function claimUndoEntry(db: Executor, organizationId: string, userId: number, id: string): Promise<UndoEntryRow | undefined> {
  return db
    .updateTable('undoEntries')
    .set({ usedAt: sql<Date>`now()` })
    .where('organizationId', '=', organizationId)
    .where('userId', '=', userId)
    .where('id', '=', id)
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', sql<Date>`now()`)
    .returningAll()
    .executeTakeFirst();
}
