/**
 * Where an uploaded file goes when its name may be taken in the folder: the upload's onConflict decides.
 * - absent: the name must be free (409 otherwise, as always);
 * - 'newVersion': a file of that name gets the upload as its next version; a folder of that name answers 409;
 *   no item of that name (the file was deleted meanwhile): a new file;
 * - 'keepBoth': a new file under the first free name of 'name (2).ext', 'name (3).ext', ...
 * Decided again at completion, under the matter's lock, so the answer holds until the transaction ends.
 */
import type { UploadOnConflict } from '@strongroom/contracts';
import { NAME_MAX_LENGTH, NODE_MSG } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import { conflict } from '../../shared/errors.js';
import { requireNameFree } from './nodes-changes.service.js';
import { itemNamed, nameTaken, type MatterRef } from './nodes.repository.js';

type UploadTarget = { kind: 'newFile'; name: string } | { kind: 'newVersion'; nodeId: string };

/** 'Defence.pdf' with n = 2 is 'Defence (2).pdf'; the stem is shortened when the name would pass the length limit. */
function numberedName(name: string, n: number): string {
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  const suffix = ` (${n})${ext}`;
  return stem.slice(0, Math.max(1, NAME_MAX_LENGTH - suffix.length)).trimEnd() + suffix;
}

/** The first of 'name (2).ext', 'name (3).ext', ... not taken in the folder. */
async function firstFreeNumberedName(db: Executor, matter: MatterRef, parentId: string | null, name: string): Promise<string> {
  for (let n = 2; ; n++) {
    const candidate = numberedName(name, n);
    if (!(await nameTaken(db, matter, parentId, candidate))) return candidate;
  }
}

export async function resolveUploadTarget(
  db: Executor,
  matter: MatterRef,
  parentId: string | null,
  name: string,
  onConflict: UploadOnConflict | null | undefined,
): Promise<UploadTarget> {
  if (!onConflict) {
    await requireNameFree(db, matter, parentId, name);
    return { kind: 'newFile', name };
  }
  const existing = await itemNamed(db, matter, parentId, name);
  if (!existing) return { kind: 'newFile', name };
  if (onConflict === 'keepBoth') return { kind: 'newFile', name: await firstFreeNumberedName(db, matter, parentId, name) };
  if (existing.nodeType !== 'file') throw conflict(NODE_MSG.nameExists(name), { reason: 'NAME_TAKEN', field: 'name' });
  return { kind: 'newVersion', nodeId: existing.id };
}
