import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { Building2, Pencil } from 'lucide-react';
import { SETTINGS_MSG, updateOrganizationRequest, type OrganizationSettingsResponse } from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/error-state';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage, isMfaCancelledError } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { useOrganizationSettings } from '../api/get-organization';
import { useUpdateOrganization } from '../api/update-organization';

const organizationForm = updateOrganizationRequest.omit({ mfaToken: true });
type OrganizationFormIn = z.input<typeof organizationForm>;
type OrganizationFormOut = z.output<typeof organizationForm>;

/** The Organization tab: the firm's name and primary contact ('Not set' when empty); administrators edit them. */
export function OrganizationTab() {
  const organization = useOrganizationSettings();
  const [editing, setEditing] = useState(false);
  const headingId = useId();

  return (
    <Card role="region" aria-labelledby={headingId}>
      <CardHeader className="flex-row items-start justify-between gap-4">
        <div className="grid gap-1.5">
          <h2 id={headingId} className="text-lg font-semibold">
            Organization
          </h2>
          <CardDescription>Your firm as Strongroom knows it, and who to contact about its account.</CardDescription>
        </div>
        {organization.data?.canEdit && !editing ? (
          <Button variant="outline" size="sm" onClick={() => setEditing(true)}>
            <Pencil aria-hidden="true" />
            Edit
          </Button>
        ) : null}
      </CardHeader>
      <CardContent>
        {organization.isPending ? (
          <div role="status" aria-label="Loading organization" className="grid gap-4 sm:grid-cols-2">
            {[0, 1, 2, 3].map((i) => (
              <div key={i} className="grid gap-2">
                <Skeleton className="h-3 w-24" />
                <Skeleton className="h-4 w-48" />
              </div>
            ))}
          </div>
        ) : organization.isError ? (
          <ErrorState
            title="Could not load the organization"
            message={errorMessage(organization.error)}
            onRetry={() => void organization.refetch()}
            retrying={organization.isFetching}
          />
        ) : editing ? (
          <OrganizationForm organization={organization.data} onDone={() => setEditing(false)} />
        ) : (
          <OrganizationView organization={organization.data} />
        )}
      </CardContent>
    </Card>
  );
}

function OrganizationView({ organization }: { organization: OrganizationSettingsResponse }) {
  return (
    <div className="flex flex-col gap-6 sm:flex-row sm:items-start">
      <div className="flex size-12 shrink-0 items-center justify-center rounded-lg bg-primary-soft text-primary-soft-foreground">
        <Building2 aria-hidden="true" className="size-6" />
      </div>
      <dl className="grid flex-1 gap-4 sm:grid-cols-2">
        <Detail term="Firm name" value={organization.name} />
        <Detail term="Primary contact name" value={organization.primaryContactName} />
        <Detail term="Primary contact email" value={organization.primaryContactEmail} />
        <Detail term="Primary contact phone" value={organization.primaryContactPhone} />
      </dl>
    </div>
  );
}

function Detail({ term, value }: { term: string; value: string | null }) {
  return (
    <div className="grid min-w-0 gap-1">
      <dt className="text-xs font-medium text-muted-foreground">{term}</dt>
      <dd className={value ? 'text-sm break-words' : 'text-sm text-muted-foreground italic'}>{value || SETTINGS_MSG.notSet}</dd>
    </div>
  );
}

function OrganizationForm({ organization, onDone }: { organization: OrganizationSettingsResponse; onDone: () => void }) {
  const update = useUpdateOrganization();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<OrganizationFormIn, unknown, OrganizationFormOut>({
    resolver: zodResolver(organizationForm),
    defaultValues: {
      name: organization.name,
      primaryContactName: organization.primaryContactName ?? '',
      primaryContactEmail: organization.primaryContactEmail ?? '',
      primaryContactPhone: organization.primaryContactPhone ?? '',
    },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((values) => {
    setFormError(null);
    update.mutate(values, {
      onSuccess: () => {
        toast.success(SETTINGS_MSG.organizationUpdated);
        onDone();
      },
      onError: (error) => {
        // Closing the MFA prompt leaves the form as it was, with a word on what is needed.
        setFormError(isMfaCancelledError(error) ? null : errorMessage(error));
      },
    });
  });

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      {formError ? <Alert tone="danger">{formError}</Alert> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Firm name" error={errors.name?.message}>
          {(control) => <Input {...control} {...form.register('name')} autoComplete="organization" />}
        </FormField>
        <FormField label="Primary contact name" error={errors.primaryContactName?.message}>
          {(control) => <Input {...control} {...form.register('primaryContactName')} autoComplete="off" />}
        </FormField>
        <FormField label="Primary contact email" error={errors.primaryContactEmail?.message}>
          {(control) => <Input {...control} {...form.register('primaryContactEmail')} type="email" autoComplete="off" />}
        </FormField>
        <FormField label="Primary contact phone" error={errors.primaryContactPhone?.message}>
          {(control) => <Input {...control} {...form.register('primaryContactPhone')} type="tel" autoComplete="off" />}
        </FormField>
      </div>
      <div className="flex justify-end gap-2">
        <Button variant="outline" onClick={onDone} disabled={update.isPending}>
          Cancel
        </Button>
        <Button type="submit" loading={update.isPending} loadingText="Saving...">
          Save Changes
        </Button>
      </div>
    </form>
  );
}
