import { z } from 'zod';
import {
  createMatterRequest,
  MATTER_LIMITS,
  MATTER_MSG,
  updateMatterRequest,
  type CreateMatterRequest,
  type UpdateMatterRequest,
} from '@strongroom/contracts';
import type { Matter } from '@/lib/dates';

/**
 * The Create New Matter and Edit Matter forms: their values, their rules (the request schemas of the matter
 * calls, with only the dialogs' own texts added), the request each sends, and how Edit Matter merges a change
 * someone else saved meanwhile.
 */
export type MatterFormValues = {
  matterName: string;
  matterNumber: string;
  clientName: string;
  description: string;
  responsibleLawyer: string;
};

type MatterField = keyof MatterFormValues;

export const EMPTY_MATTER_FORM: MatterFormValues = {
  matterName: '',
  matterNumber: '',
  clientName: '',
  description: '',
  responsibleLawyer: '',
};

const MATTER_FIELD_LABELS: Record<MatterField, string> = {
  matterName: 'Matter Name',
  matterNumber: 'Matter Number',
  clientName: 'Client Name',
  description: 'Description',
  responsibleLawyer: 'Responsible Attorney',
};

const MATTER_FIELDS = Object.keys(MATTER_FIELD_LABELS) as MatterField[];

const create = createMatterRequest.shape;
/**
 * Create: the request's own rules and texts. The form calls the attorney field responsibleLawyer (the fields are
 * shared with Edit Matter); a number of only spaces counts as none, so the server generates one.
 */
export const createMatterForm = z.object({
  matterName: create.matterName,
  matterNumber: z.preprocess((v) => (typeof v === 'string' ? v.trim() : v), create.matterNumber),
  clientName: create.clientName,
  description: create.description,
  responsibleLawyer: create.responsibleAttorney,
});

/**
 * The create request. The suggested number is not reserved: sent back unchanged it is left out, so the server
 * takes the next free one even if another matter took the suggestion meanwhile.
 */
export function createBody(v: MatterFormValues, suggestedNumber: string | null): CreateMatterRequest {
  const number = v.matterNumber.trim();
  return {
    matterName: v.matterName.trim(),
    matterNumber: number && number !== suggestedNumber ? number : undefined,
    clientName: v.clientName.trim(),
    description: v.description.trim() || undefined,
    responsibleAttorney: v.responsibleLawyer.trim(),
  };
}

const update = updateMatterRequest.shape;
/**
 * Edit: the update request's rules, with the dialog's own texts for a missing name and a long description. The
 * number identifies the matter: once it has one, it can be changed but not emptied; a matter without one may
 * stay without. Client and lawyer may be emptied.
 */
export function editMatterForm(hasNumber: boolean) {
  return z.object({
    matterName: z.string().trim().min(1, { error: MATTER_MSG.editMatterNameRequired }).pipe(update.matterName.unwrap()),
    matterNumber: hasNumber
      ? update.matterNumber.unwrap()
      : z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), update.matterNumber),
    clientName: update.clientName,
    description: z
      .string()
      .max(MATTER_LIMITS.descriptionMax, { error: MATTER_MSG.editDescriptionTooLong })
      .pipe(update.description.unwrap()),
    responsibleLawyer: update.responsibleLawyer,
  });
}

export function matterFormValues(m: Pick<Matter, MatterField>): MatterFormValues {
  return {
    matterName: m.matterName,
    matterNumber: m.matterNumber ?? '',
    clientName: m.clientName ?? '',
    description: m.description ?? '',
    responsibleLawyer: m.responsibleLawyer ?? '',
  };
}

/**
 * The update request for the form's values against the matter as last read: unchanged fields are left out, and
 * an emptied client, lawyer or description is sent as null / '' so the server clears it. A field that was
 * already empty and stays empty is absent.
 */
export function updateBody(matter: Matter, v: MatterFormValues): UpdateMatterRequest {
  const body: UpdateMatterRequest = { matterId: matter.id, expectedVersion: matter.version, matterName: v.matterName.trim() };
  const number = v.matterNumber.trim();
  if (number && number !== matter.matterNumber) body.matterNumber = number;
  const client = v.clientName.trim();
  if (client !== (matter.clientName ?? '')) body.clientName = client === '' ? null : client;
  const lawyer = v.responsibleLawyer.trim();
  if (lawyer !== (matter.responsibleLawyer ?? '')) body.responsibleLawyer = lawyer === '' ? null : lawyer;
  if (v.description.trim() !== (matter.description ?? '')) body.description = v.description.trim();
  return body;
}

export type ConflictMerge = {
  /** What the form shows now: the other change in every field the user left alone, the user's edits on top. */
  values: MatterFormValues;
  /** Fields the user edited (kept as typed). */
  edited: MatterField[];
  /** Fields the other change touched. */
  changed: MatterField[];
  /** Fields both touched: the user's version is kept. */
  both: MatterField[];
};

/**
 * After a stale save: `base` is the matter the form was opened with, `theirs` the matter as saved meanwhile,
 * `mine` what the form holds. Saving the result again keeps the other change wherever the user did not edit,
 * so it is never silently undone.
 */
export function mergeConflict(base: Pick<Matter, MatterField>, theirs: Pick<Matter, MatterField>, mine: MatterFormValues): ConflictMerge {
  const before = matterFormValues(base);
  const now = matterFormValues(theirs);
  const changed = MATTER_FIELDS.filter((k) => before[k] !== now[k]);
  const edited = MATTER_FIELDS.filter((k) => mine[k] !== before[k]);
  const values = { ...now };
  for (const k of edited) values[k] = mine[k];
  return { values, edited, changed, both: edited.filter((k) => changed.includes(k)) };
}

/** The notice above the merged form: who changed what, whose version a field both touched keeps, what to do. */
export function conflictNotice(merge: Pick<ConflictMerge, 'changed' | 'both'>, updatedBy: string | null | undefined): string {
  const names = (ks: MatterField[]) => ks.map((k) => MATTER_FIELD_LABELS[k]).join(', ');
  return (
    `${updatedBy ? `${updatedBy} changed` : 'Someone changed'} ${merge.changed.length ? names(merge.changed) : 'this matter'}. ` +
    (merge.both.length ? `You changed ${names(merge.both)} too: your version is kept. ` : '') +
    'The form now has their changes and yours: check them and save again.'
  );
}
