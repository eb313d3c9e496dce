import { useRef, type ReactNode } from 'react';
import { Card } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/error-state';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-error';
import { useProfile } from '../api/get-profile';
import { ApiTokensCard } from './api-tokens-card';
import { PasswordCard } from './password-card';
import { PersonalInfoCard } from './personal-info-card';
import { SecurityCard } from './security-card';

type ProfileTabProps = {
  userId: number;
  /** The name, email or second factor changed: the session is read again. */
  onSessionChange: () => void;
  /** The passkeys card, composed by the page (another feature's), shown under Security. */
  passkeys?: ReactNode;
};

/** The Profile tab: Personal Information, Security (password and second factor), Change Password and API Tokens. */
export function ProfileTab({ userId, onSessionChange, passkeys }: ProfileTabProps) {
  const profile = useProfile();
  const passwordHeading = useRef<HTMLHeadingElement>(null);

  if (profile.isPending) {
    return (
      <div role="status" aria-label="Loading profile" className="grid gap-6">
        {[0, 1].map((i) => (
          <Card key={i} className="grid gap-4 p-6">
            <Skeleton className="h-5 w-48" />
            <div className="flex items-center gap-4">
              <Skeleton className="size-16 rounded-full" />
              <div className="grid flex-1 gap-2">
                <Skeleton className="h-4 w-64" />
                <Skeleton className="h-4 w-48" />
              </div>
            </div>
          </Card>
        ))}
      </div>
    );
  }
  if (profile.isError) {
    return (
      <Card>
        <ErrorState
          title="Could not load your profile"
          message={errorMessage(profile.error)}
          onRetry={() => void profile.refetch()}
          retrying={profile.isFetching}
        />
      </Card>
    );
  }
  return (
    <div className="grid gap-6">
      <PersonalInfoCard profile={profile.data} onSaved={onSessionChange} />
      <SecurityCard
        profile={profile.data}
        userId={userId}
        onMfaChanged={onSessionChange}
        onChangePassword={() => {
          passwordHeading.current?.scrollIntoView({ block: 'start' });
          passwordHeading.current?.focus();
        }}
      />
      {passkeys}
      <PasswordCard headingRef={passwordHeading} />
      <ApiTokensCard isAdmin={profile.data.role === 'admin'} />
    </div>
  );
}
