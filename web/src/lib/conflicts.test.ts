import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error';
import { NODE_MSG } from '@strongroom/contracts';
import {
  conflictField,
  conflictKind,
  conflictRetryDelay,
  conflictText,
  IN_FLIGHT_TTL_MS,
  RESOURCE_LOCKED,
  RESOURCE_MODIFIED,
  shouldRetryMutation,
  withInFlight,
} from './conflicts';

const e409 = (message: string, details?: unknown) => new ApiError({ status: 409, code: 'CONFLICT_ERROR', message, details });
/** A 409 from something in front of the server (a proxy, a gateway): no code, no details. */
const bare409 = (message: string) => new ApiError({ status: 409, message });

describe('concurrency errors', () => {
  it('reads the kind from the reason a 409 answer names, whatever its words', () => {
    expect(conflictKind(e409('Someone else saved first.', { reason: 'VERSION_MISMATCH' }))).toBe('optimistic-lock');
    expect(conflictKind(e409('Please try again.', { reason: 'RACE', retryAfterSeconds: 1 }))).toBe('race');
    expect(conflictKind(e409('Please try again.', { reason: 'LOCKED' }))).toBe('locked');
    // Other reasons are no concurrency errors, even when the text holds the words.
    expect(
      conflictKind(e409('This upload is being completed; the concurrent request is refused.', { reason: 'UPLOAD_COMPLETING' })),
    ).toBeNull();
    expect(conflictKind(e409('Actions are disabled: the matter is locked.', { reason: 'LEGAL_HOLD' }))).toBeNull();
  });

  it('never retries a name the user must change, though the name holds the words', () => {
    for (const name of ['Locked', 'Files in use', 'Concurrent filings', 'Version mismatch notes']) {
      const taken = e409(NODE_MSG.nameExists(name), { field: 'name' });
      expect(conflictKind(taken)).toBeNull();
      expect(shouldRetryMutation(0, taken)).toBe(false);
      expect(conflictText(taken, 'rename')).toBeNull();
    }
    const named = e409(NODE_MSG.nameExists('Locked'), { reason: 'NAME_TAKEN', field: 'name' });
    expect(shouldRetryMutation(0, named)).toBe(false);
  });

  it('names the field at fault from the details, and from the words only for a bare answer', () => {
    expect(conflictField(e409('Taken.', { reason: 'NUMBER_TAKEN', field: 'matterNumber' }), 'matterNumber')).toBe('matterNumber');
    expect(conflictField(e409('Taken.', { reason: 'NUMBER_TAKEN' }))).toBe('matterNumber');
    expect(conflictField(e409('Taken.', { field: 'name' }))).toBe('name');
    expect(conflictField(bare409('A matter with this number already exists.'), 'matterNumber')).toBe('matterNumber');
    // The server's own answer without a field is not read by its words.
    expect(conflictField(e409('A matter with this number already exists.'), 'matterNumber')).toBeUndefined();
    // A reason that is not about a field: the words do not count.
    expect(conflictField(e409('An account with this email already exists.', { reason: 'ACCOUNT_EXISTS' }), 'matterNumber')).toBeUndefined();
    expect(conflictField(new ApiError({ status: 400, message: 'already exists' }), 'matterNumber')).toBeUndefined();
    expect(conflictField(new Error('already exists'), 'matterNumber')).toBeUndefined();
  });

  it('reads the kind from the words of a bare 409 (no code, no reason: a proxy in front of the server)', () => {
    expect(conflictKind(bare409('Version mismatch: the matter was modified by another user.'))).toBe('optimistic-lock');
    expect(conflictKind(bare409('Optimistic lock failed'))).toBe('optimistic-lock');
    expect(conflictKind(bare409('Concurrent matter creation detected. Please try again.'))).toBe('race');
    expect(conflictKind(bare409('race condition on node'))).toBe('race');
    expect(conflictKind(bare409('Resource is currently locked by another operation. Please try again.'))).toBe('locked');
    expect(conflictKind(bare409('The folder is in use'))).toBe('locked');
    expect(conflictKind(bare409('A folder with this name already exists.'))).toBeNull();
  });

  it('never reads the words of a server answer: with its code but no reason it is no concurrency error', () => {
    for (const text of [
      'Version mismatch',
      'Concurrent operation detected. Please try again.',
      'The matter is locked.',
      'The folder is in use',
    ]) {
      expect(conflictKind(e409(text))).toBeNull();
      expect(shouldRetryMutation(0, e409(text))).toBe(false);
      expect(conflictText(e409(text), 'rename')).toBeNull();
    }
  });

  it('leaves other statuses alone, whatever their words', () => {
    expect(conflictKind(new ApiError({ status: 400, message: 'Application version mismatch. Please refresh the page.' }))).toBeNull();
    expect(conflictKind(new ApiError({ status: 409, message: 'This email is already in use' }))).toBe('locked');
    expect(conflictKind(new Error('concurrent'))).toBeNull();
  });

  it('gives the concurrency texts', () => {
    expect(conflictText(e409('The resource was modified.', { reason: 'VERSION_MISMATCH' }), 'update')).toBe(RESOURCE_MODIFIED);
    expect(conflictText(e409('Concurrent operation detected. Please try again.', { reason: 'RACE' }), 'rename')).toBe(
      'Race condition detected during rename. Please try again.',
    );
    expect(conflictText(e409('Please try again.', { reason: 'LOCKED' }), 'move')).toBe(RESOURCE_LOCKED);
    expect(conflictText(bare409('locked'), 'move')).toBe(RESOURCE_LOCKED);
    expect(conflictText(e409('Name taken', { reason: 'NAME_TAKEN', field: 'name' }), 'move')).toBeNull();
  });

  it('retries races and locks up to 3 times, never optimistic-lock conflicts or other errors', () => {
    const race = e409('Concurrent operation detected. Please try again.', { reason: 'RACE' });
    expect([0, 1, 2, 3].map((n) => shouldRetryMutation(n, race))).toEqual([true, true, true, false]);
    expect(shouldRetryMutation(0, e409('Resource is currently locked by another operation.', { reason: 'LOCKED' }))).toBe(true);
    expect(shouldRetryMutation(0, bare409('locked by another operation'))).toBe(true);
    expect(shouldRetryMutation(0, e409('Version mismatch', { reason: 'VERSION_MISMATCH' }))).toBe(false);
    expect(shouldRetryMutation(0, new ApiError({ status: 500, message: 'Something went wrong' }))).toBe(false);
  });

  it('waits the server-given delay, else 1 s doubling with jitter', () => {
    expect(conflictRetryDelay(1, e409('Concurrent', { reason: 'RACE', retryAfterSeconds: 2 }))).toBe(2000);
    const race = e409('Concurrent', { reason: 'RACE' });
    expect(conflictRetryDelay(1, race, () => 0.5)).toBe(1000);
    expect(conflictRetryDelay(2, race, () => 0.5)).toBe(2000);
    expect(conflictRetryDelay(3, race, () => 0.5)).toBe(4000);
    expect(conflictRetryDelay(1, race, () => 0)).toBe(500);
    expect(conflictRetryDelay(1, race, () => 0.999)).toBe(1499);
  });
});

describe('in-flight registry', () => {
  it('refuses a second operation on the same resource while the first runs, then allows it', async () => {
    let release!: () => void;
    const first = withInFlight('node n1', () => new Promise<string>((r) => (release = () => r('first'))));
    await expect(withInFlight('node n1', async () => 'second')).rejects.toMatchObject({
      status: 409,
      message: 'Concurrent operation detected on node n1. Please try again.',
      details: { reason: 'RACE' },
    });
    // Another resource is not affected.
    await expect(withInFlight('node n2', async () => 'other')).resolves.toBe('other');
    release();
    await expect(first).resolves.toBe('first');
    await expect(withInFlight('node n1', async () => 'third')).resolves.toBe('third');
  });

  it('the refusal is a race the retry rule resends', async () => {
    const hold = withInFlight('matter m1', () => new Promise((r) => setTimeout(r, 20)));
    const refused = await withInFlight('matter m1', async () => 1).catch((e: unknown) => e);
    expect(shouldRetryMutation(0, refused)).toBe(true);
    await hold;
  });

  it('an entry older than 30 s no longer blocks (an operation that never settled)', async () => {
    let t = 1_000_000;
    const now = () => t;
    void withInFlight('node stuck', () => new Promise(() => {}), now);
    await expect(withInFlight('node stuck', async () => 'x', now)).rejects.toBeInstanceOf(ApiError);
    t += IN_FLIGHT_TTL_MS + 1;
    await expect(withInFlight('node stuck', async () => 'after', now)).resolves.toBe('after');
  });

  it('a failed operation releases its resource', async () => {
    await expect(withInFlight('node f', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(withInFlight('node f', async () => 'ok')).resolves.toBe('ok');
  });
});
