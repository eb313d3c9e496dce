import type {
  ClientSuggestion,
  CreateMatterRequest,
  LawyerSuggestion,
  MatterChangeResponse,
  MatterConflictDetails,
  MatterListQuery,
  MatterListResponse,
  MatterResponse,
  SuggestionQuery,
  UpdateMatterRequest,
} from '@strongroom/contracts';
import { LIMITS, MATTER_LIMITS, MATTER_MSG } from '@strongroom/contracts';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import type { Executor } from '../../platform/db/database.js';
import { conflict } from '../../shared/errors.js';
import { formatMatterNumber } from '../../shared/matter-number.js';
import { isUniqueViolation } from '../../shared/unique-violation.js';
import type { AuthContext } from '../sessions/index.js';
import { recordUndo, undoUnavailable, type UndoEntry, type UndoOffer } from '../undo/index.js';
import type { UserRow } from '../users/index.js';
import { lockVisibleMatter, matterReadScope, requireMatterWritable, requireMatterWriter, toMatterDto } from './matter-access.js';
import {
  countMatters,
  insertMatter,
  listMatters as listMatterRows,
  matterNumberTaken,
  peekMatterCounter,
  nameSuggestions,
  nextMatterCounter,
  updateMatterRow,
  userName,
  type MatterChanges,
  type MatterFilters,
} from './matters.repository.js';

const DAY_MS = 86_400_000;

/** A date-only bound covers the whole UTC day; a date-time is taken as given. */
function dateBounds(q: Pick<MatterListQuery, 'dateFrom' | 'dateTo'>): { createdFrom?: Date; createdBefore?: Date } {
  const dateOnly = (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s);
  return {
    createdFrom: q.dateFrom ? new Date(dateOnly(q.dateFrom) ? `${q.dateFrom}T00:00:00.000Z` : q.dateFrom) : undefined,
    createdBefore: q.dateTo
      ? dateOnly(q.dateTo)
        ? new Date(Date.parse(`${q.dateTo}T00:00:00.000Z`) + DAY_MS)
        : new Date(Date.parse(q.dateTo) + 1)
      : undefined,
  };
}

/** Admins and users list every matter they may see; a guest only the matters shared with them. */
export async function listMatters(ctx: AppContext, auth: AuthContext, q: MatterListQuery): Promise<MatterListResponse> {
  const filters: MatterFilters = {
    organizationId: auth.user.organizationId,
    includeVaulted: auth.user.permissions.canViewVaulted,
    ...matterReadScope(auth.user),
    search: q.search,
    status: q.status,
    clientName: q.clientName,
    clientNameExact: q.clientNameExact,
    responsibleLawyer: q.responsibleLawyer,
    responsibleLawyerExact: q.responsibleLawyerExact,
    ...dateBounds(q),
  };
  const [rows, counted] = await Promise.all([
    listMatterRows(
      ctx.db,
      filters,
      { sortBy: q.sortBy, direction: q.sortDirection },
      { limit: q.pageSize, offset: (q.page - 1) * q.pageSize },
    ),
    countMatters(ctx.db, filters, LIMITS.listCountBound),
  ]);
  // Past the bound the count is "at least the bound": totalCount is the bound and the answer says so.
  const totalCountCapped = counted > LIMITS.listCountBound;
  return { matters: rows.map(toMatterDto), totalCount: totalCountCapped ? LIMITS.listCountBound : counted, totalCountCapped };
}

/**
 * The number createMatter would give a new matter now, for the Create dialog to show (editable). Not reserved:
 * the dialog sends it back only when the user changed it, so a creation in between costs nobody a conflict.
 */
export async function nextMatterNumber(ctx: AppContext, auth: AuthContext): Promise<{ matterNumber: string }> {
  const year = new Date().getUTCFullYear();
  // Past the counter and every number of the year typed by hand: free when asked.
  const counter = await peekMatterCounter(ctx.db, auth.user.organizationId, year);
  return { matterNumber: formatMatterNumber(year, counter) };
}

/** Admins and holders of canUpload create matters (the New Matter button is offered to the same people). */
export async function createMatter(
  ctx: AppContext,
  auth: AuthContext,
  input: CreateMatterRequest,
  meta: RequestMeta,
): Promise<MatterResponse> {
  const { user } = auth;
  const givenNumber = input.matterNumber?.trim();
  try {
    const matter = await ctx.db.transaction().execute(async (trx) => {
      let matterNumber: string;
      if (givenNumber) {
        if (await matterNumberTaken(trx, user.organizationId, givenNumber))
          throw conflict(MATTER_MSG.matterNumberExists, { reason: 'NUMBER_TAKEN', field: 'matterNumber' });
        matterNumber = givenNumber;
      } else {
        const year = new Date().getUTCFullYear();
        // The counter steps past every stored number of the year at once, so the number is free unless a number
        // typed by hand was committed in the same instant; taking the counter again then steps past that one too.
        // Only a run of such collisions is reported as the race it is.
        for (let attempt = 1; ; attempt++) {
          matterNumber = formatMatterNumber(year, await nextMatterCounter(trx, user.organizationId, year));
          if (!(await matterNumberTaken(trx, user.organizationId, matterNumber))) break;
          if (attempt >= 3) throw conflict(MATTER_MSG.concurrentCreation, { reason: 'RACE' });
        }
      }
      const row = await insertMatter(trx, {
        organizationId: user.organizationId,
        matterName: input.matterName,
        matterNumber,
        clientName: input.clientName,
        description: input.description ? input.description : null,
        responsibleLawyer: input.responsibleAttorney,
        createdBy: user.id,
      });
      await auditFor(user, meta)(
        trx,
        'CREATE_MATTER',
        { table: 'matters', id: row.id },
        {
          matterName: row.matterName,
          matterNumber: row.matterNumber,
          clientName: row.clientName,
          responsibleLawyer: row.responsibleLawyer,
          numberGenerated: !givenNumber,
        },
      );
      return row;
    });
    return { matter: toMatterDto(matter) };
  } catch (err) {
    // Two creations with the same number at once: the unique index decides.
    if (isUniqueViolation(err, 'matters_org_number_unique')) {
      throw givenNumber
        ? conflict(MATTER_MSG.matterNumberExists, { reason: 'NUMBER_TAKEN', field: 'matterNumber' })
        : conflict(MATTER_MSG.concurrentCreation, { reason: 'RACE' });
    }
    throw err;
  }
}

/** Admins and holders of canUpload edit matters; a person who may change nothing sees them read-only. */
function requireMatterEditor(user: UserRow): void {
  requireMatterWriter(user, 'editor');
}

const EDITABLE = ['matterName', 'matterNumber', 'clientName', 'description', 'responsibleLawyer'] as const;

export async function updateMatter(
  ctx: AppContext,
  auth: AuthContext,
  input: UpdateMatterRequest,
  meta: RequestMeta,
): Promise<MatterChangeResponse> {
  const { user } = auth;
  requireMatterEditor(user);
  let offer: UndoOffer | undefined;
  try {
    const matter = await ctx.db.transaction().execute(async (trx) => {
      const current = await lockVisibleMatter(trx, user, input.matterId);
      requireMatterWritable(current);
      if (current.version !== input.expectedVersion) {
        const details: MatterConflictDetails & { reason: 'VERSION_MISMATCH' } = {
          reason: 'VERSION_MISMATCH',
          currentVersion: current.version,
          updatedAt: current.updatedAt.toISOString(),
          updatedBy: await userName(trx, current.updatedBy),
        };
        throw conflict(MATTER_MSG.versionMismatch, details);
      }
      const wanted: MatterChanges = {
        matterName: input.matterName,
        matterNumber: input.matterNumber,
        clientName: input.clientName,
        description: input.description === undefined ? undefined : input.description === '' ? null : input.description,
        responsibleLawyer: input.responsibleLawyer,
      };
      const changes: MatterChanges = {};
      const audited: Record<string, { from: unknown; to: unknown }> = {};
      for (const field of EDITABLE) {
        const value = wanted[field];
        if (value === undefined || value === current[field]) continue;
        (changes as Record<string, unknown>)[field] = value;
        audited[field] = { from: current[field], to: value };
      }
      if (Object.keys(changes).length === 0) return current;
      if (changes.matterNumber && (await matterNumberTaken(trx, user.organizationId, changes.matterNumber, current.id))) {
        throw conflict(MATTER_MSG.matterNumberExists, { reason: 'NUMBER_TAKEN', field: 'matterNumber' });
      }
      const updated = await updateMatterRow(trx, current, changes, user.id);
      await auditFor(user, meta)(
        trx,
        'UPDATE_MATTER',
        { table: 'matters', id: current.id },
        { matterName: updated.matterName, changes: audited, version: updated.version },
      );
      const before = Object.fromEntries(Object.keys(changes).map((field) => [field, current[field as keyof MatterChanges]]));
      offer = await recordUndo(trx, auth, { kind: 'matter.update', targetId: current.id, version: updated.version, before });
      return updated;
    });
    return { matter: toMatterDto(matter), ...offer };
  } catch (err) {
    if (isUniqueViolation(err, 'matters_org_number_unique'))
      throw conflict(MATTER_MSG.matterNumberExists, { reason: 'NUMBER_TAKEN', field: 'matterNumber' });
    throw err;
  }
}

/**
 * Undo of a matter edit: the fields the edit changed take their former values, while the matter is still at the
 * version the edit produced, still open to changes, and its former number is still free. Raises the version and
 * is audited as UNDO_UPDATE_MATTER.
 */
export async function undoMatterUpdate(
  trx: Executor,
  auth: AuthContext,
  entry: UndoEntry,
  meta: RequestMeta,
): Promise<{ targetId: string; matterId: string }> {
  const { user } = auth;
  requireMatterEditor(user);
  const current = await lockVisibleMatter(trx, user, entry.targetId).catch((err: unknown) => {
    throw (err as { statusCode?: number }).statusCode === 404 ? undoUnavailable('GONE') : err;
  });
  requireMatterWritable(current);
  if (current.version !== entry.version) throw undoUnavailable('CHANGED');
  const before = entry.before as MatterChanges;
  const changes: MatterChanges = {};
  const audited: Record<string, { from: unknown; to: unknown }> = {};
  for (const field of EDITABLE) {
    if (!(field in before)) continue;
    (changes as Record<string, unknown>)[field] = before[field];
    audited[field] = { from: current[field], to: before[field] };
  }
  if (changes.matterNumber && (await matterNumberTaken(trx, user.organizationId, changes.matterNumber, current.id))) {
    throw conflict(MATTER_MSG.matterNumberExists, { reason: 'NUMBER_TAKEN', field: 'matterNumber' });
  }
  const updated = await updateMatterRow(trx, current, changes, user.id).catch((err: unknown) => {
    // The former number was taken by a matter created in the same instant: the unique index decides.
    throw isUniqueViolation(err, 'matters_org_number_unique')
      ? conflict(MATTER_MSG.matterNumberExists, { reason: 'NUMBER_TAKEN', field: 'matterNumber' })
      : err;
  });
  await auditFor(user, meta)(
    trx,
    'UNDO_UPDATE_MATTER',
    { table: 'matters', id: current.id },
    {
      matterName: updated.matterName,
      undoId: entry.id,
      changes: audited,
      version: updated.version,
    },
  );
  return { targetId: current.id, matterId: current.id };
}

async function suggestions(ctx: AppContext, auth: AuthContext, column: 'clientName' | 'responsibleLawyer', q: SuggestionQuery) {
  return nameSuggestions(ctx.db, column, {
    organizationId: auth.user.organizationId,
    includeVaulted: auth.user.permissions.canViewVaulted,
    ...matterReadScope(auth.user),
    query: q.query,
    limit: q.limit,
  });
}

/** Clients by how many matters name them; Frequent from MATTER_LIMITS.frequentMatterCount (3) matters. */
export async function clientSuggestions(ctx: AppContext, auth: AuthContext, q: SuggestionQuery): Promise<ClientSuggestion[]> {
  const rows = await suggestions(ctx, auth, 'clientName', q);
  return rows.map((r) => ({
    clientName: r.name,
    matterCount: r.matterCount,
    isFrequentClient: r.matterCount >= MATTER_LIMITS.frequentMatterCount,
  }));
}

export async function lawyerSuggestions(ctx: AppContext, auth: AuthContext, q: SuggestionQuery): Promise<LawyerSuggestion[]> {
  const rows = await suggestions(ctx, auth, 'responsibleLawyer', q);
  return rows.map((r) => ({
    lawyerName: r.name,
    matterCount: r.matterCount,
    isFrequentLawyer: r.matterCount >= MATTER_LIMITS.frequentMatterCount,
  }));
}
