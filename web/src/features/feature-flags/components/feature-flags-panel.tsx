import { useEffect, useId, useState } from 'react';
import { Check, CircleDot, Lock, ShieldAlert, ShieldCheck } from 'lucide-react';
import { MSG, SETTINGS_MSG, type FeatureFlag, type FeatureFlagName } from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { Switch } from '@/components/ui/switch';
import { errorMessage } from '@/lib/api-error';
import { isApprovalRequiredError } from '@/lib/approval-required';
import { toast } from '@/lib/toast';
import { useFeatureFlags } from '../api/get-feature-flags';
import { useUpdateFeatureFlags } from '../api/update-feature-flags';
import {
  clearSaved,
  markFailed,
  markSaved,
  markSaving,
  pendingUpdates,
  SAVED_INDICATOR_MS,
  shownValue,
  stateOf,
  toggleFlag,
  type FlagChanges,
  type FlagUiState,
} from '../lib/flag-changes';

/** The name each flag goes by on screen; its code name is shown beside it for administrators who script. */
const FLAG_LABELS: Record<FeatureFlagName, string> = {
  MFA_USER_MANAGEMENT: 'User management',
  MFA_ORGANIZATION_SETTINGS: 'Organization settings',
  MFA_VAULT_OPERATIONS: 'Vault operations',
  MFA_RETENTION_POLICIES: 'Retention policies',
  MFA_SYSTEM_OPERATIONS: 'System operations',
  enhanced_user_management: 'Enhanced user management',
};

/** Rows shown while the flags load. */
const SKELETON_ROWS = 5;

const onOff = (v: boolean) => (v ? 'On' : 'Off');

type SecuritySettingsProps = {
  /** The signed-in user is still being loaded. */
  authLoading: boolean;
  isAdmin: boolean;
  /** Sent with the change so the server can refuse a change aimed at another organization. */
  organizationId: string | undefined;
};

/** The Security tab: the flag panel for administrators, an Access Restricted notice for anyone else. */
export function SecuritySettings({ authLoading, isAdmin, organizationId }: SecuritySettingsProps) {
  if (authLoading) {
    return (
      <p role="status" className="py-10 text-center text-sm text-muted-foreground">
        Loading
      </p>
    );
  }
  if (!isAdmin) {
    return (
      <Card>
        <EmptyState icon={Lock} title="Access Restricted" description={SETTINGS_MSG.adminsOnly} />
      </Card>
    );
  }
  return <FeatureFlagsPanel organizationId={organizationId} />;
}

/** 'MFA for Critical Operations': which operations need a fresh MFA code, changed together and saved with a system MFA code. */
function FeatureFlagsPanel({ organizationId }: { organizationId: string | undefined }) {
  const flags = useFeatureFlags();
  const update = useUpdateFeatureFlags();
  const [changes, setChanges] = useState<FlagChanges>({});
  const [saveError, setSaveError] = useState<string | null>(null);
  const headingId = useId();

  const hasSaved = Object.values(changes).some((e) => e?.state === 'saved');
  useEffect(() => {
    if (!hasSaved) return;
    const timer = window.setTimeout(() => setChanges(clearSaved), SAVED_INDICATOR_MS);
    return () => window.clearTimeout(timer);
  }, [hasSaved]);

  const list = flags.data?.featureFlags ?? [];
  const serverValue = (name: FeatureFlagName) => list.find((f) => f.flagName === name)?.enabled ?? false;
  const updates = pendingUpdates(changes);
  const saving = update.isPending;

  const save = () => {
    if (updates.length === 0 || saving) return;
    setSaveError(null);
    setChanges(markSaving);
    update.mutate(
      { flagsToUpdate: updates, organizationId },
      {
        onSuccess: () => {
          setChanges(markSaved);
          toast.success(SETTINGS_MSG.flagsUpdated);
        },
        onError: (error) => {
          // Turning a safeguard off waits for a second administrator: the flags stay as they are (the waiting
          // dialog says so), so the switches show the stored values again.
          if (isApprovalRequiredError(error)) {
            setChanges({});
            return;
          }
          setChanges(markFailed);
          // Closing the MFA prompt is a choice: the changes stay, nothing is reported as failed.
          if (error instanceof Error && error.message === MSG.mfaPromptClosed) return;
          setSaveError('Failed to save changes. Please try again.');
          toast.error(
            error instanceof Error && error.message
              ? `Update failed: ${error.message}`
              : 'An unknown error occurred while updating feature flags.',
          );
        },
      },
    );
  };

  const cancel = () => {
    setChanges((c) => Object.fromEntries(Object.entries(c).filter(([, e]) => e?.state === 'saving' || e?.state === 'saved')));
    setSaveError(null);
  };

  return (
    <Card aria-labelledby={headingId} role="region">
      <CardHeader>
        <div className="flex items-center gap-2">
          <ShieldCheck aria-hidden="true" className="size-5 text-primary" />
          <h2 id={headingId} className="text-lg font-semibold">
            MFA for Critical Operations
          </h2>
        </div>
        <CardDescription>
          Choose which operations ask for a fresh MFA code. Vaulting a matter always does. Saving these settings asks for your code.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {flags.isPending ? (
          <ul role="status" aria-label="Loading feature flags" className="grid gap-3">
            {Array.from({ length: SKELETON_ROWS }, (_, i) => (
              <li
                key={i}
                data-testid="flag-skeleton"
                className="flex items-center justify-between gap-4 rounded-lg border border-border p-4"
              >
                <div className="grid flex-1 gap-2">
                  <Skeleton className="h-4 w-48" />
                  <Skeleton className="h-3 w-full max-w-md" />
                </div>
                <Skeleton className="h-6 w-11 rounded-full" />
              </li>
            ))}
          </ul>
        ) : flags.isError ? (
          <ErrorState
            title="Failed to load settings"
            message={errorMessage(flags.error)}
            retryLabel="Try Again"
            onRetry={() => window.location.reload()}
          />
        ) : (
          <ul className="grid gap-3">
            {list.map((flag) => (
              <FlagRow
                key={flag.flagName}
                flag={flag}
                value={shownValue(changes, flag.flagName, flag.enabled)}
                state={stateOf(changes, flag.flagName)}
                onToggle={(v) => setChanges((c) => toggleFlag(c, flag.flagName, v, flag.enabled))}
              />
            ))}
          </ul>
        )}
        {updates.length > 0 || saving ? (
          <div
            role="region"
            aria-label="Unsaved changes"
            className="sticky bottom-4 grid gap-3 rounded-lg border border-warning/40 bg-warning-soft p-4 shadow-lg"
          >
            <div className="flex items-start gap-2">
              <ShieldAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-warning" />
              <div className="grid gap-1 text-sm">
                <p className="font-semibold">
                  {saving ? 'Saving changes...' : `${updates.length} unsaved ${updates.length === 1 ? 'change' : 'changes'}`}
                </p>
                <ul className="grid gap-0.5 text-muted-foreground">
                  {(saving ? savingList(changes) : updates).map((u) => (
                    <li key={u.flagName}>
                      {FLAG_LABELS[u.flagName]}: {onOff(serverValue(u.flagName))} → {onOff(u.enabled)}
                    </li>
                  ))}
                </ul>
              </div>
            </div>
            {saveError ? <Alert tone="danger">{saveError}</Alert> : null}
            <div className="flex justify-end gap-2">
              <Button variant="outline" onClick={cancel} disabled={saving}>
                Cancel
              </Button>
              <Button onClick={save} loading={saving} loadingText="Saving...">
                Save Changes
              </Button>
            </div>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}

function savingList(changes: FlagChanges): { flagName: FeatureFlagName; enabled: boolean }[] {
  return (Object.entries(changes) as [FeatureFlagName, { state: FlagUiState; pending?: boolean }][])
    .filter(([, e]) => e.state === 'saving' && e.pending !== undefined)
    .map(([flagName, e]) => ({ flagName, enabled: e.pending! }));
}

type FlagRowProps = { flag: FeatureFlag; value: boolean; state: FlagUiState; onToggle: (value: boolean) => void };

function FlagRow({ flag, value, state, onToggle }: FlagRowProps) {
  const labelId = useId();
  const descriptionId = useId();
  return (
    <li
      data-testid={`flag-${flag.flagName}`}
      data-state={state}
      className="flex items-center justify-between gap-4 rounded-lg border border-border p-4 data-[state=changed]:border-warning/50"
    >
      <div className="grid min-w-0 flex-1 gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <span id={labelId} className="text-sm font-medium">
            {FLAG_LABELS[flag.flagName]}
          </span>
          <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs text-muted-foreground">{flag.flagName}</code>
        </div>
        <p id={descriptionId} className="text-sm text-muted-foreground">
          {flag.description}
        </p>
      </div>
      <div className="flex items-center gap-3">
        <FlagStateIcon state={state} />
        <Switch
          checked={value}
          onCheckedChange={onToggle}
          disabled={state === 'saving'}
          aria-labelledby={labelId}
          aria-describedby={descriptionId}
        />
      </div>
    </li>
  );
}

/** Changed: a dot; saving: a spinner; saved: a check for 2 s; original: nothing. Each says what it means to screen readers. */
function FlagStateIcon({ state }: { state: FlagUiState }) {
  const box = 'flex size-5 items-center justify-center';
  if (state === 'changed') {
    return (
      <span className={box} title="Changed, not saved">
        <CircleDot aria-hidden="true" className="size-4 text-warning" />
        <span className="sr-only">Changed, not saved</span>
      </span>
    );
  }
  if (state === 'saving') {
    return (
      <span className={box}>
        <Spinner label="Saving" />
      </span>
    );
  }
  if (state === 'saved') {
    return (
      <span className={box} title="Saved">
        <Check aria-hidden="true" className="size-4 text-success" />
        <span className="sr-only">Saved</span>
      </span>
    );
  }
  return <span aria-hidden="true" className={box} />;
}
