import { createAppQueryClient, isSessionLostError } from '@/lib/query-client';
import { noteSignedInUser, onSessionEnd } from '@/lib/session-end';
import { forgetUploads } from '@/features/uploads/lib/saved-uploads';
import { sessionQueryKey, type SessionData } from '@/features/auth/api/get-session';
import { handleSessionError, handleSessionSuccess } from '@/features/auth/session-errors';

// A logout or a change of user takes the organization's running and saved uploads out of this browser.
onSessionEnd(({ organizationId }) => forgetUploads(organizationId));

function isSessionQuery(queryKey: readonly unknown[]): boolean {
  return queryKey[0] === sessionQueryKey[0];
}

/** The one query client: the shared defaults (lib/query-client) plus the session rules of the auth feature. */
export const queryClient = createAppQueryClient({
  onQueryError: (error, query) => {
    if (isSessionQuery(query.queryKey)) handleSessionError(error, queryClient);
    else if (isSessionLostError(error)) void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
  },
  onQuerySuccess: (data, query) => {
    if (isSessionQuery(query.queryKey)) {
      const session = data as SessionData;
      handleSessionSuccess(session);
      if (session?.user) void noteSignedInUser({ userId: session.user.id, organizationId: session.user.organizationId });
    }
  },
  onSessionLost: () => void queryClient.invalidateQueries({ queryKey: sessionQueryKey }),
});
