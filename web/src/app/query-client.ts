import { createAppQueryClient, isSessionLostError } from '@/lib/query-client';
import { sessionQueryKey, type SessionData } from '@/features/auth/api/get-session';
import { handleSessionError, handleSessionSuccess } from '@/features/auth/session-errors';

function isSessionQuery(queryKey: readonly unknown[]): boolean {
  return queryKey[0] === sessionQueryKey[0];
}

/** The one query client: spec defaults (lib/query-client) plus the session rules of the auth feature. */
export const queryClient = createAppQueryClient({
  onQueryError: (error, query) => {
    if (isSessionQuery(query.queryKey)) handleSessionError(error, queryClient);
    else if (isSessionLostError(error)) void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
  },
  onQuerySuccess: (data, query) => {
    if (isSessionQuery(query.queryKey)) handleSessionSuccess(data as SessionData);
  },
  onSessionLost: () => void queryClient.invalidateQueries({ queryKey: sessionQueryKey }),
});
