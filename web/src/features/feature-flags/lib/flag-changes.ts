import type { FeatureFlagName } from '@strongroom/contracts';

/**
 * The local state of one feature flag in the panel: 'original' shows the server's value, 'changed' holds a
 * pending value the user chose, 'saving' while that value is being sent, 'saved' for a moment after.
 */
export type FlagUiState = 'original' | 'changed' | 'saving' | 'saved';
type FlagEntry = { state: FlagUiState; pending?: boolean };
export type FlagChanges = Partial<Record<FeatureFlagName, FlagEntry>>;

/** How long a saved flag shows its check mark before it is plain again. */
export const SAVED_INDICATOR_MS = 2_000;

/**
 * The user toggled a flag to `value`. Back at the server's value the flag is 'original' again (nothing to
 * save); otherwise it is 'changed' with the pending value. A flag being saved is not touched.
 */
export function toggleFlag(changes: FlagChanges, name: FeatureFlagName, value: boolean, serverValue: boolean): FlagChanges {
  if (changes[name]?.state === 'saving') return changes;
  const next = { ...changes };
  if (value === serverValue) delete next[name];
  else next[name] = { state: 'changed', pending: value };
  return next;
}

/** The value the switch shows: the pending one while changed or saving, else the server's. */
export function shownValue(changes: FlagChanges, name: FeatureFlagName, serverValue: boolean): boolean {
  const entry = changes[name];
  return entry?.pending !== undefined && (entry.state === 'changed' || entry.state === 'saving') ? entry.pending : serverValue;
}

/** The flags to send: every changed one with its pending value. */
export function pendingUpdates(changes: FlagChanges): { flagName: FeatureFlagName; enabled: boolean }[] {
  return (Object.entries(changes) as [FeatureFlagName, FlagEntry][])
    .filter(([, e]) => e.state === 'changed' && e.pending !== undefined)
    .map(([flagName, e]) => ({ flagName, enabled: e.pending! }));
}

/** Every changed flag is being saved now. */
export function markSaving(changes: FlagChanges): FlagChanges {
  return mapStates(changes, (e) => (e.state === 'changed' ? { ...e, state: 'saving' } : e));
}

/** The save succeeded: the flags being saved show 'saved' (their value is the server's now). */
export function markSaved(changes: FlagChanges): FlagChanges {
  return mapStates(changes, (e) => (e.state === 'saving' ? { state: 'saved' } : e));
}

/** The save failed: the flags go back to 'changed', their pending values kept for another try. */
export function markFailed(changes: FlagChanges): FlagChanges {
  return mapStates(changes, (e) => (e.state === 'saving' ? { ...e, state: 'changed' } : e));
}

/** 'saved' turns back into 'original' (the entry goes) once its moment has passed. */
export function clearSaved(changes: FlagChanges): FlagChanges {
  return mapStates(changes, (e) => (e.state === 'saved' ? null : e));
}

export function stateOf(changes: FlagChanges, name: FeatureFlagName): FlagUiState {
  return changes[name]?.state ?? 'original';
}

function mapStates(changes: FlagChanges, fn: (e: FlagEntry) => FlagEntry | null): FlagChanges {
  const next: FlagChanges = {};
  for (const [name, entry] of Object.entries(changes) as [FeatureFlagName, FlagEntry][]) {
    const mapped = fn(entry);
    if (mapped) next[name] = mapped;
  }
  return next;
}
