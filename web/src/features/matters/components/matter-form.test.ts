import { describe, expect, it } from 'vitest';
import { MATTER_MSG } from '@strongroom/contracts';
import type { Matter } from '@/lib/dates';
import { makeMatter } from '@/test/matter';
import {
  conflictNotice,
  createBody,
  createMatterForm,
  editMatterForm,
  EMPTY_MATTER_FORM,
  matterFormValues,
  mergeConflict,
  updateBody,
  type MatterFormValues,
} from './matter-form';

const matter = makeMatter();

/** The messages a schema gives, by field. */
function problems(
  schema: { safeParse: (v: unknown) => { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } },
  v: MatterFormValues,
) {
  const r = schema.safeParse(v);
  return Object.fromEntries((r.error?.issues ?? []).map((i) => [String(i.path[0]), i.message]));
}

const filled: MatterFormValues = {
  matterName: 'Lease dispute',
  matterNumber: '',
  clientName: 'Acme',
  description: '',
  responsibleLawyer: 'Jane',
};

describe('the Create New Matter form', () => {
  it("asks for name, client and attorney with the create call's texts", () => {
    expect(problems(createMatterForm, EMPTY_MATTER_FORM)).toEqual({
      matterName: MATTER_MSG.matterNameRequired,
      clientName: MATTER_MSG.clientNameRequired,
      responsibleLawyer: MATTER_MSG.responsibleAttorneyRequired,
    });
    expect(problems(createMatterForm, { ...filled, matterName: '   ' })).toEqual({ matterName: MATTER_MSG.matterNameRequired });
  });

  it('accepts no number (or only spaces) and refuses a number in another format', () => {
    expect(problems(createMatterForm, filled)).toEqual({});
    expect(problems(createMatterForm, { ...filled, matterNumber: '  ' })).toEqual({});
    expect(problems(createMatterForm, { ...filled, matterNumber: ' MAT-2026-014 ' })).toEqual({});
    expect(problems(createMatterForm, { ...filled, matterNumber: '2026-014' })).toEqual({ matterNumber: MATTER_MSG.matterNumberFormat });
  });

  it('limits the lengths with their texts', () => {
    const long = 'x'.repeat(256);
    expect(
      problems(createMatterForm, { ...filled, matterName: long, clientName: long, responsibleLawyer: long, description: 'd'.repeat(2001) }),
    ).toEqual({
      matterName: MATTER_MSG.matterNameTooLong,
      clientName: MATTER_MSG.clientNameTooLong,
      responsibleLawyer: MATTER_MSG.lawyerNameTooLong,
      description: MATTER_MSG.descriptionTooLong,
    });
  });

  it('sends the number only when the user changed the suggestion, and trimmed texts', () => {
    const v = { ...filled, matterName: ' Lease dispute ', matterNumber: 'MAT-2026-007', description: '  ' };
    expect(createBody(v, 'MAT-2026-007')).toEqual({
      matterName: 'Lease dispute',
      matterNumber: undefined,
      clientName: 'Acme',
      description: undefined,
      responsibleAttorney: 'Jane',
    });
    expect(createBody({ ...v, matterNumber: ' MAT-2026-100 ' }, 'MAT-2026-007').matterNumber).toBe('MAT-2026-100');
    expect(createBody({ ...v, matterNumber: '' }, 'MAT-2026-007').matterNumber).toBeUndefined();
  });
});

describe('the Edit Matter form', () => {
  it("uses the dialog's own texts for a missing name and a long description", () => {
    const v = { ...matterFormValues(matter), matterName: ' ', description: 'x'.repeat(2001) };
    expect(problems(editMatterForm(true), v)).toEqual({
      matterName: MATTER_MSG.editMatterNameRequired,
      description: MATTER_MSG.editDescriptionTooLong,
    });
  });

  it('will not empty a number once the matter has one; a matter without one may stay without', () => {
    const v = { ...matterFormValues(matter), matterNumber: '' };
    expect(problems(editMatterForm(true), v)).toEqual({ matterNumber: MATTER_MSG.matterNumberNotRemovable });
    expect(problems(editMatterForm(false), v)).toEqual({});
    expect(problems(editMatterForm(false), { ...v, matterNumber: 'nope' })).toEqual({ matterNumber: MATTER_MSG.matterNumberFormat });
  });

  it('lets client and lawyer be emptied, and sends them as null; unchanged fields stay out', () => {
    const v = { ...matterFormValues(matter), clientName: '', responsibleLawyer: '  ' };
    expect(problems(editMatterForm(true), v)).toEqual({});
    expect(updateBody(matter, v)).toEqual({
      matterId: matter.id,
      expectedVersion: 3,
      matterName: 'Lease dispute',
      clientName: null,
      responsibleLawyer: null,
    });
  });
});

describe('merging a change saved meanwhile', () => {
  const theirs: Matter = { ...matter, clientName: 'Acme Holdings Ltd', description: 'Lease of the east pier', version: 4 };

  it('puts their change into the fields the user left alone and keeps what the user typed', () => {
    const mine = { ...matterFormValues(matter), matterName: 'Lease dispute (East Pier)', description: 'My description' };
    const merge = mergeConflict(matter, theirs, mine);
    expect(merge.values).toEqual({ ...matterFormValues(theirs), matterName: 'Lease dispute (East Pier)', description: 'My description' });
    expect(merge).toMatchObject({ edited: ['matterName', 'description'], changed: ['clientName', 'description'], both: ['description'] });
    // Saved again against the newer version, the other change is not undone: the client is theirs and unchanged.
    expect(updateBody(theirs, merge.values)).toEqual({
      matterId: matter.id,
      expectedVersion: 4,
      matterName: 'Lease dispute (East Pier)',
      description: 'My description',
    });
  });

  it('says who changed what, and whose version a field both changed keeps', () => {
    expect(conflictNotice({ changed: ['clientName'], both: [] }, 'Mia Matters')).toBe(
      'Mia Matters changed Client Name. The form now has their changes and yours: check them and save again.',
    );
    expect(conflictNotice({ changed: ['clientName', 'description'], both: ['description'] }, null)).toBe(
      'Someone changed Client Name, Description. You changed Description too: your version is kept. The form now has their changes and yours: check them and save again.',
    );
    expect(conflictNotice({ changed: [], both: [] }, undefined)).toBe(
      'Someone changed this matter. The form now has their changes and yours: check them and save again.',
    );
  });
});
