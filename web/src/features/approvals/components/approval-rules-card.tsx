import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Stamp } from 'lucide-react';
import {
  APPROVAL_ACTION_LABELS,
  APPROVAL_ACTIONS,
  APPROVAL_LIMITS,
  APPROVAL_MSG,
  updateApprovalSettingsRequest,
  type ApprovalAction,
  type ApprovalSettingsResponse,
} from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/error-state';
import { FormField } from '@/components/ui/form-field';
import { Input, inputClasses } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage, isMfaCancelledError } from '@/lib/api-error';
import { isApprovalRequiredError } from '@/lib/approval-required';
import { cn } from '@/lib/class-names';
import { toast } from '@/lib/toast';
import { useApprovalSettings, useUpdateApprovalSettings } from '../api/approvals';

const rulesForm = updateApprovalSettingsRequest
  .omit({ mfaToken: true, reason: true })
  .required()
  .extend({ reason: z.string().trim().max(APPROVAL_LIMITS.reasonMax, { error: APPROVAL_MSG.reasonTooLong }) });
type RulesForm = {
  actions: ApprovalAction[];
  expiryHours: number;
  folderFileThreshold: number;
  dispositionLeadDays: number;
  reason: string;
};

const valuesOf = (s: ApprovalSettingsResponse): RulesForm => ({
  actions: APPROVAL_ACTIONS.filter((a) => s.actions.includes(a)),
  expiryHours: s.expiryHours,
  folderFileThreshold: s.folderFileThreshold,
  dispositionLeadDays: s.dispositionLeadDays,
  reason: '',
});

/** Settings → Security → Approvals: which dangerous actions need a second administrator. */
export function ApprovalRulesCard() {
  const headingId = useId();
  const settings = useApprovalSettings();
  // Held here, not in the form: a saved change re-keys the form, and the save's callbacks must outlive it.
  const update = useUpdateApprovalSettings();
  return (
    <Card role="region" aria-labelledby={headingId}>
      <CardHeader>
        <div className="flex items-center gap-2">
          <Stamp aria-hidden="true" className="size-5 text-primary" />
          <h2 id={headingId} className="text-lg font-semibold">
            Approvals
          </h2>
        </div>
        <CardDescription>
          Choose the dangerous actions that need a second administrator: when someone asks for one, nothing happens until another
          administrator approves it with a fresh code. Once any rule is on, changing these rules needs approval too.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {settings.isPending ? (
          <div role="status" aria-label="Loading approval rules" className="grid gap-3">
            {Array.from({ length: 4 }, (_, i) => (
              <Skeleton key={i} className="h-6 w-72 max-w-full" />
            ))}
          </div>
        ) : settings.isError ? (
          <ErrorState
            title="Could not load the approval rules"
            message={errorMessage(settings.error)}
            onRetry={() => void settings.refetch()}
            retrying={settings.isFetching}
            titleAs="h3"
          />
        ) : (
          <RulesForm key={JSON.stringify(settings.data)} settings={settings.data} update={update} />
        )}
      </CardContent>
    </Card>
  );
}

function RulesForm({ settings, update }: { settings: ApprovalSettingsResponse; update: ReturnType<typeof useUpdateApprovalSettings> }) {
  const [notice, setNotice] = useState<{ tone: 'danger' | 'warning' | 'info'; text: string } | null>(null);
  const form = useForm<RulesForm>({ resolver: zodResolver(rulesForm), defaultValues: valuesOf(settings) });
  const { errors, isDirty } = form.formState;
  // Rules can be turned on only with a second active administrator to approve; ones already on can still be turned off.
  const tooFewAdmins = settings.activeAdministrators < 2;
  const locked = tooFewAdmins && settings.actions.length === 0;
  const explanationId = useId();

  const onSubmit = form.handleSubmit((values) => {
    setNotice(null);
    const reason = values.reason.trim();
    update.mutate(
      {
        actions: values.actions,
        expiryHours: values.expiryHours,
        folderFileThreshold: values.folderFileThreshold,
        dispositionLeadDays: values.dispositionLeadDays,
        ...(reason ? { reason } : {}),
      },
      {
        onSuccess: (answer) => {
          toast.success(answer.message || APPROVAL_MSG.policySaved);
        },
        onError: (error) => {
          if (isMfaCancelledError(error)) return;
          if (isApprovalRequiredError(error)) {
            // Nothing changed yet: the form shows the rules in force again, and says the change waits.
            form.reset(valuesOf(settings));
            setNotice({ tone: 'info', text: error.message });
            return;
          }
          setNotice({ tone: 'danger', text: errorMessage(error) });
        },
      },
    );
  });

  const numberField = (
    name: 'expiryHours' | 'folderFileThreshold' | 'dispositionLeadDays',
    label: string,
    min: number,
    max: number,
    hint: string,
  ) => (
    <FormField label={label} error={errors[name]?.message} hint={hint}>
      {(control) => (
        <Input
          {...control}
          {...form.register(name, { valueAsNumber: true })}
          type="number"
          inputMode="numeric"
          min={min}
          max={max}
          step={1}
          disabled={locked}
          className="w-40"
        />
      )}
    </FormField>
  );

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5">
      {tooFewAdmins ? (
        <Alert tone="warning" id={explanationId} title="A second administrator is needed">
          {APPROVAL_MSG.secondApproverNeeded} Your organization has {settings.activeAdministrators} active administrator
          {settings.activeAdministrators === 1 ? '' : 's'}.
        </Alert>
      ) : null}
      {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}
      <fieldset className="grid gap-2" disabled={locked} aria-describedby={tooFewAdmins ? explanationId : undefined}>
        <legend className="mb-2 text-sm font-medium">Needs a second administrator</legend>
        {APPROVAL_ACTIONS.map((action) => (
          <label key={action} className={cn('flex items-start gap-3 text-sm', locked && 'opacity-60')}>
            <input type="checkbox" value={action} {...form.register('actions')} className="mt-0.5 size-4 shrink-0 accent-primary" />
            <span>{APPROVAL_ACTION_LABELS[action]}</span>
          </label>
        ))}
        {errors.actions?.message ? <p className="text-sm font-medium text-danger">{errors.actions.message}</p> : null}
      </fieldset>
      <div className="grid items-start gap-4 sm:grid-cols-3">
        {numberField(
          'expiryHours',
          'Requests expire after (hours)',
          APPROVAL_LIMITS.expiryHoursMin,
          APPROVAL_LIMITS.expiryHoursMax,
          `${APPROVAL_LIMITS.expiryHoursMin} to ${APPROVAL_LIMITS.expiryHoursMax} hours.`,
        )}
        {numberField(
          'folderFileThreshold',
          'Large folder (files)',
          APPROVAL_LIMITS.folderFilesMin,
          APPROVAL_LIMITS.folderFilesMax,
          'Deleting a folder of more files than this needs approval.',
        )}
        {numberField(
          'dispositionLeadDays',
          'Disposition review (days)',
          APPROVAL_LIMITS.dispositionLeadDaysMin,
          APPROVAL_LIMITS.dispositionLeadDaysMax,
          'How long before retention ends the destruction is put up for approval.',
        )}
      </div>
      {settings.actions.length > 0 ? (
        <FormField label="Reason (optional)" hint="Shown to the administrator who approves this change." error={errors.reason?.message}>
          {(c) => <textarea {...c} {...form.register('reason')} rows={2} className={cn(inputClasses, 'h-auto min-h-16 resize-y')} />}
        </FormField>
      ) : null}
      <Button type="submit" className="justify-self-start" disabled={locked || !isDirty} loading={update.isPending} loadingText="Saving...">
        Save approval rules
      </Button>
    </form>
  );
}
