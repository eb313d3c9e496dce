import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { Pencil } from 'lucide-react';
import { SETTINGS_MSG, updateProfileRequest, type ProfileResponse, type Role } from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { errorMessage, isApiError, isMfaCancelledError } from '@/lib/api-error';
import { initialsOf } from '@/lib/initials';
import { toast } from '@/lib/toast';
import { useUpdateProfile } from '../api/update-profile';
import { ROLE_LABELS } from '../lib/format';

const profileForm = updateProfileRequest.omit({ mfaToken: true });
type ProfileFormIn = z.input<typeof profileForm>;
type ProfileFormOut = z.output<typeof profileForm>;

type PersonalInfoCardProps = {
  profile: ProfileResponse;
  /** The profile changed: the session (name and email in the top bar) is read again. */
  onSaved: () => void;
};

/** Personal Information: name, email, phone, role and initials, with an Edit toggle that opens the form in place. */
export function PersonalInfoCard({ profile, onSaved }: PersonalInfoCardProps) {
  const [editing, setEditing] = useState(false);
  const headingId = useId();
  return (
    <Card role="region" aria-labelledby={headingId}>
      <CardHeader className="flex-row items-start justify-between gap-4">
        <div className="grid gap-1.5">
          <h2 id={headingId} className="text-lg font-semibold">
            Personal Information
          </h2>
          <CardDescription>Your name and how colleagues reach you.</CardDescription>
        </div>
        {editing ? null : (
          <Button variant="outline" size="sm" onClick={() => setEditing(true)}>
            <Pencil aria-hidden="true" />
            Edit
          </Button>
        )}
      </CardHeader>
      <CardContent>
        {editing ? (
          <ProfileEditForm
            profile={profile}
            onDone={(saved) => {
              setEditing(false);
              if (saved) onSaved();
            }}
          />
        ) : (
          <ProfileView profile={profile} />
        )}
      </CardContent>
    </Card>
  );
}

function ProfileView({ profile }: { profile: ProfileResponse }) {
  return (
    <div className="flex flex-col gap-6 sm:flex-row sm:items-start">
      <div
        aria-hidden="true"
        data-testid="profile-initials"
        className="flex size-16 shrink-0 items-center justify-center rounded-full bg-primary-soft text-xl font-semibold text-primary-soft-foreground"
      >
        {initialsOf(profile.fullName)}
      </div>
      <dl className="grid flex-1 gap-4 sm:grid-cols-2">
        <Detail term="Display name" value={profile.fullName} />
        <Detail term="Email address" value={profile.email} />
        <Detail term="Phone number" value={profile.phoneNumber || SETTINGS_MSG.notSet} muted={!profile.phoneNumber} />
        <div className="grid gap-1">
          <dt className="text-xs font-medium text-muted-foreground">Role</dt>
          <dd>
            <Badge tone={roleTone(profile.role)}>{ROLE_LABELS[profile.role]}</Badge>
          </dd>
        </div>
      </dl>
    </div>
  );
}

function roleTone(role: Role) {
  return role === 'admin' ? 'primary' : role === 'guest' ? 'outline' : 'neutral';
}

function Detail({ term, value, muted }: { term: string; value: string; muted?: boolean }) {
  return (
    <div className="grid min-w-0 gap-1">
      <dt className="text-xs font-medium text-muted-foreground">{term}</dt>
      <dd className={muted ? 'text-sm text-muted-foreground italic' : 'text-sm break-words'}>{value}</dd>
    </div>
  );
}

function ProfileEditForm({ profile, onDone }: { profile: ProfileResponse; onDone: (saved: boolean) => void }) {
  const update = useUpdateProfile();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<ProfileFormIn, unknown, ProfileFormOut>({
    resolver: zodResolver(profileForm),
    defaultValues: { fullName: profile.fullName, email: profile.email, phoneNumber: profile.phoneNumber ?? '' },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((values) => {
    setFormError(null);
    update.mutate(
      { fullName: values.fullName, email: values.email, phoneNumber: values.phoneNumber || null },
      {
        onSuccess: () => {
          toast.success(SETTINGS_MSG.profileUpdated);
          onDone(true);
        },
        onError: (error) => {
          // The address belongs to another account: say so on the field itself.
          if (isApiError(error) && fieldOf(error.details) === 'email') {
            form.setError('email', { message: error.message }, { shouldFocus: true });
            return;
          }
          if (isMfaCancelledError(error)) return;
          setFormError(errorMessage(error));
        },
      },
    );
  });

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      {formError ? <Alert tone="danger">{formError}</Alert> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Full name" error={errors.fullName?.message}>
          {(control) => <Input {...control} {...form.register('fullName')} autoComplete="name" />}
        </FormField>
        <FormField label="Email address" error={errors.email?.message} hint="Changing it asks for an MFA code.">
          {(control) => <Input {...control} {...form.register('email')} type="email" autoComplete="email" />}
        </FormField>
        <FormField label="Phone number" error={errors.phoneNumber?.message} hint="Optional.">
          {(control) => <Input {...control} {...form.register('phoneNumber')} type="tel" autoComplete="tel" />}
        </FormField>
      </div>
      <div className="flex justify-end gap-2">
        <Button variant="outline" onClick={() => onDone(false)} disabled={update.isPending}>
          Cancel
        </Button>
        <Button type="submit" loading={update.isPending} loadingText="Saving...">
          Save Changes
        </Button>
      </div>
    </form>
  );
}

function fieldOf(details: unknown): string | undefined {
  if (typeof details !== 'object' || details === null) return undefined;
  const field = (details as Record<string, unknown>).field;
  return typeof field === 'string' ? field : undefined;
}
