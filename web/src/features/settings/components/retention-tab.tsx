import { useId, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Archive, Lock } from 'lucide-react';
import { SETTINGS_LIMITS, SETTINGS_MSG, VAULT_MSG, updateRetentionRequest, type RetentionSettingsResponse } from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/error-state';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage, isMfaCancelledError } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { useRetentionSettings } from '../api/get-retention';
import { useUpdateRetention } from '../api/update-retention';
import { SigningKeyCard } from './signing-key-card';

const retentionForm = updateRetentionRequest.omit({ mfaToken: true }).required();
type RetentionForm = { defaultRetentionYears: number; binRetentionDays: number };

/**
 * The Retention & Vault tab: the default retention policy (administrators change it), the read-only vault
 * configuration and the fingerprint of the key certificates are signed with.
 */
export function RetentionTab() {
  const settings = useRetentionSettings();
  if (settings.isPending) {
    return (
      <div role="status" aria-label="Loading retention settings" className="grid gap-6">
        {[0, 1].map((i) => (
          <Card key={i} className="grid gap-4 p-6">
            <Skeleton className="h-5 w-56" />
            <Skeleton className="h-10 w-40" />
          </Card>
        ))}
      </div>
    );
  }
  if (settings.isError) {
    return (
      <Card>
        <ErrorState
          title="Could not load retention settings"
          message={errorMessage(settings.error)}
          onRetry={() => void settings.refetch()}
          retrying={settings.isFetching}
        />
      </Card>
    );
  }
  return (
    <div className="grid gap-6">
      <RetentionPolicyCard settings={settings.data} />
      <VaultConfigurationCard settings={settings.data} />
      <SigningKeyCard />
    </div>
  );
}

function RetentionPolicyCard({ settings }: { settings: RetentionSettingsResponse }) {
  const update = useUpdateRetention();
  const [formError, setFormError] = useState<string | null>(null);
  const headingId = useId();
  const form = useForm<RetentionForm>({
    resolver: zodResolver(retentionForm),
    defaultValues: {
      defaultRetentionYears: settings.defaultRetentionYears ?? SETTINGS_LIMITS.retentionYearsDefault,
      binRetentionDays: settings.binRetentionDays ?? SETTINGS_LIMITS.binRetentionDaysDefault,
    },
  });
  const { errors, isDirty } = form.formState;

  const onSubmit = form.handleSubmit((values) => {
    setFormError(null);
    update.mutate(values, {
      onSuccess: (answer) => {
        toast.success(SETTINGS_MSG.retentionUpdated);
        form.reset({ defaultRetentionYears: answer.defaultRetentionYears, binRetentionDays: answer.binRetentionDays });
      },
      onError: (error) => setFormError(isMfaCancelledError(error) ? null : errorMessage(error)),
    });
  });

  return (
    <Card role="region" aria-labelledby={headingId}>
      <CardHeader>
        <div className="flex items-center gap-2">
          <Archive aria-hidden="true" className="size-5 text-primary" />
          <h2 id={headingId} className="text-lg font-semibold">
            Default Retention Policy
          </h2>
        </div>
        <CardDescription>
          How long vaulted matters are kept before their files may be deleted (the vault dialog starts from this value), and how long
          deleted folders and files stay in each matter's recycle bin.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="grid max-w-sm gap-4">
          {formError ? <Alert tone="danger">{formError}</Alert> : null}
          <FormField
            label="Retention period (years)"
            error={errors.defaultRetentionYears?.message}
            hint={
              settings.canEdit
                ? `At least ${SETTINGS_LIMITS.retentionYearsMin} year.`
                : 'Only administrators can change the retention policy.'
            }
          >
            {(control) => (
              <Input
                {...control}
                {...form.register('defaultRetentionYears', { valueAsNumber: true })}
                type="number"
                inputMode="numeric"
                min={SETTINGS_LIMITS.retentionYearsMin}
                max={SETTINGS_LIMITS.retentionYearsMax}
                step={1}
                readOnly={!settings.canEdit}
                className="w-40"
              />
            )}
          </FormField>
          <FormField
            label="Recycle bin (days)"
            error={errors.binRetentionDays?.message}
            hint={
              settings.canEdit
                ? `From ${SETTINGS_LIMITS.binRetentionDaysMin} to ${SETTINGS_LIMITS.binRetentionDaysMax} days; then deleted items are deleted for good.`
                : 'Only administrators can change how long deleted items are kept.'
            }
          >
            {(control) => (
              <Input
                {...control}
                {...form.register('binRetentionDays', { valueAsNumber: true })}
                type="number"
                inputMode="numeric"
                min={SETTINGS_LIMITS.binRetentionDaysMin}
                max={SETTINGS_LIMITS.binRetentionDaysMax}
                step={1}
                readOnly={!settings.canEdit}
                className="w-40"
              />
            )}
          </FormField>
          {settings.canEdit ? (
            <Button type="submit" className="justify-self-start" disabled={!isDirty} loading={update.isPending} loadingText="Saving...">
              Save Retention Policy
            </Button>
          ) : null}
        </form>
      </CardContent>
    </Card>
  );
}

function VaultConfigurationCard({ settings }: { settings: RetentionSettingsResponse }) {
  const headingId = useId();
  const { writeOnce } = settings.vaultConfiguration;
  return (
    <Card role="region" aria-labelledby={headingId}>
      <CardHeader>
        <div className="flex items-center gap-2">
          <Lock aria-hidden="true" className="size-5 text-primary" />
          <h2 id={headingId} className="text-lg font-semibold">
            Vault Configuration
          </h2>
        </div>
        <CardDescription>Read-only: how the vault protects what is put in it.</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid divide-y divide-border">
          <ConfigRow
            term="Object Lock Mode"
            value={<Badge tone="primary">Compliance</Badge>}
            explanation="WORM protection (write once, read many): during the retention period no one can overwrite or delete a vaulted file, not even the storage account's root user."
          />
          <ConfigRow
            term="MFA for Vaulting"
            value={<Badge tone="primary">Required</Badge>}
            explanation="Every vault operation asks for a fresh MFA code."
          />
          <ConfigRow
            term="Write-once storage"
            value={
              <Badge tone={writeOnce.enforced ? 'success' : 'danger'} data-testid="write-once-status">
                {writeOnce.enforced ? 'Enforced' : 'Not enforced'}
              </Badge>
            }
            // Not enforced: why vaulting is refused, and the one way an administrator can allow it.
            explanation={`${writeOnce.store === 's3' ? 'S3 object store' : 'Local object store'}: ${writeOnce.detail}${writeOnce.enforced ? '' : ` ${VAULT_MSG.unlockedStoreNote}`}`}
          />
        </dl>
      </CardContent>
    </Card>
  );
}

function ConfigRow({ term, value, explanation }: { term: string; value: ReactNode; explanation: string }) {
  return (
    <div className="grid gap-1.5 py-3 first:pt-0 last:pb-0 sm:grid-cols-[12rem_1fr] sm:gap-4">
      <dt className="text-sm font-medium">{term}</dt>
      <dd className="grid gap-1">
        <div>{value}</div>
        <p className="text-sm text-muted-foreground">{explanation}</p>
      </dd>
    </div>
  );
}
