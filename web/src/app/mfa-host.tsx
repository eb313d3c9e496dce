import { lazy, Suspense, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { sessionQueryKey, type SessionData } from '@/features/auth/api/get-session';
import { usePasskeys } from '@/features/passkeys/api/list-passkeys';
import { useCurrentMfaRequest } from '@/lib/mfa-bridge';
import { useSystemMfaPrompt } from '@/lib/system-mfa';

// Loaded on first use, so the sign-in page does not carry the dialogs.
const SensitiveActionMfaDialog = lazy(() => import('@/features/mfa/components/sensitive-action-mfa-dialog'));
const SystemMfaPromptDialog = lazy(() => import('@/features/mfa/components/system-mfa-prompt'));

type SystemPromptProps = { prompt: ReturnType<typeof useSystemMfaPrompt>; user: NonNullable<SessionData>['user'] | undefined };

/** The system prompt, told whether the person has a passkey (read once the first prompt has opened). */
function SystemPrompt({ prompt, user }: SystemPromptProps) {
  const passkeys = usePasskeys();
  const hasPasskey = (passkeys.data?.passkeys.length ?? 0) > 0;
  return <SystemMfaPromptDialog prompt={prompt} userId={user?.id} userMethod={user?.mfaPrimaryMethod} hasPasskey={hasPasskey} />;
}

/** Mounts the sensitive-action MFA dialog and the system MFA prompt when the api client asks for them. */
export function MfaHost() {
  const request = useCurrentMfaRequest();
  const prompt = useSystemMfaPrompt();
  const queryClient = useQueryClient();
  const [sensitiveLoaded, setSensitiveLoaded] = useState(false);
  const [systemLoaded, setSystemLoaded] = useState(false);
  if (request && !sensitiveLoaded) setSensitiveLoaded(true);
  if (prompt && !systemLoaded) setSystemLoaded(true);

  const user = queryClient.getQueryData<SessionData>(sessionQueryKey)?.user;
  return (
    <Suspense fallback={null}>
      {sensitiveLoaded ? <SensitiveActionMfaDialog request={request} userId={user?.id} userMethod={user?.mfaPrimaryMethod} /> : null}
      {systemLoaded ? <SystemPrompt prompt={prompt} user={user} /> : null}
    </Suspense>
  );
}
