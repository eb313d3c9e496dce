/**
 * The undo registry. A change that can be taken back records an entry in its own transaction (so the entry
 * exists exactly when the change committed): its kind, the object, the version the change left the object at and
 * the fields as they were before. POST /_api/undo hands the entry to the handler of its kind, which restores the
 * fields in one transaction with its audit entry, and only while the object is still at that version.
 *
 * Rules every kind shares, enforced here:
 * - an entry lasts UNDO_WINDOW_MS (5 minutes) and is used at most once;
 * - only the person who made the change may undo it; another organization's entry is answered as one that does
 *   not exist (404).
 */
import { UNDO_MSG, UNDO_WINDOW_MS, type UndoKind, type UndoResponse } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { AppError, conflict, forbidden, notFound } from '../../shared/errors.js';
import type { AuthContext } from '../sessions/index.js';
import { claimUndoEntry, findUndoEntry, insertUndoEntry, sweepExpiredEntries, type UndoEntryRow } from './undo.repository.js';

export type UndoEntry = Pick<UndoEntryRow, 'id' | 'kind' | 'targetId' | 'version' | 'before' | 'createdAt'>;

/**
 * Restores what one kind of change altered. Runs inside the undo's transaction after the entry was claimed;
 * it locks what the original change locked, re-checks permission and the object's state, refuses with
 * `undoUnavailable` when the object is no longer at entry.version, and appends its audit entry.
 */
type UndoHandler = (
  trx: Executor,
  auth: AuthContext,
  entry: UndoEntry,
  meta: RequestMeta,
) => Promise<{ targetId: string; matterId: string | null }>;
export type UndoHandlers = Record<UndoKind, UndoHandler>;

/** The answer when the object changed since, or the entry expired or was used: 'Undo failed' in the browser. */
export function undoUnavailable(reason: 'EXPIRED' | 'CHANGED' | 'GONE'): AppError {
  return reason === 'EXPIRED'
    ? new AppError(410, UNDO_MSG.unavailable, 'CONFLICT_ERROR', { reason })
    : conflict(UNDO_MSG.unavailable, { reason });
}

/** What a change answers so that the browser can offer Undo. */
export type UndoOffer = { undoId: string; undoExpiresAt: string };

/** Records an undo entry for a change, in the change's transaction. */
export async function recordUndo(
  trx: Executor,
  auth: AuthContext,
  entry: { kind: UndoKind; targetId: string; version: number; before: Record<string, unknown> },
): Promise<UndoOffer> {
  await sweepExpiredEntries(trx, auth.user.id);
  const row = await insertUndoEntry(trx, {
    ...entry,
    organizationId: auth.user.organizationId,
    userId: auth.user.id,
    windowMs: UNDO_WINDOW_MS,
  });
  return { undoId: row.id, undoExpiresAt: row.expiresAt.toISOString() };
}

export async function applyUndo(
  ctx: AppContext,
  auth: AuthContext,
  handlers: UndoHandlers,
  undoId: string,
  meta: RequestMeta,
): Promise<UndoResponse> {
  const { user } = auth;
  const done = await ctx.db.transaction().execute(async (trx) => {
    const found = await findUndoEntry(trx, user.organizationId, undoId);
    if (!found) throw notFound(UNDO_MSG.unavailable);
    if (found.userId !== user.id) throw forbidden();
    const handler = handlers[found.kind as UndoKind];
    if (!handler) throw notFound(UNDO_MSG.unavailable);
    // Claimed first: a second undo of the same entry waits here and then finds it used.
    const entry = await claimUndoEntry(trx, user.organizationId, user.id, undoId);
    if (!entry) throw undoUnavailable('EXPIRED');
    return { kind: found.kind as UndoKind, ...(await handler(trx, auth, entry, meta)) };
  });
  return { success: true, message: UNDO_MSG.success, ...done };
}
