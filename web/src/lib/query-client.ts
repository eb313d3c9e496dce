import { MutationCache, QueryCache, QueryClient, type Query } from '@tanstack/react-query';
import { toast } from '@/lib/toast';
import { MSG } from '@strongroom/contracts';
import { errorMessage, isApiError, isMfaCancelledError, isMfaRequiredError } from './api-error';
import { isApprovalRequiredError } from './approval-required';
import { conflictRetryDelay, conflictText, shouldRetryMutation } from './conflicts';

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: {
      /** The component shows this mutation's errors itself (inline or in a dialog): no global toast. */
      handlesError?: boolean;
      /** What the mutation does, for 'Race condition detected during {operation}.' (e.g. 'rename'). */
      operation?: string;
    };
  }
}

/**
 * How long answers stay fresh (staleTime) or cached (gcTime): matter detail 1 minute, the matters list 2 minutes,
 * client and lawyer suggestions kept 5 minutes, everything else fresh for 5 minutes unless its call says otherwise.
 */
export const CACHE_TIMES = {
  defaultStaleMs: 5 * 60_000,
  matterDetailStaleMs: 60_000,
  matterListStaleMs: 2 * 60_000,
  suggestionsStaleMs: 5 * 60_000,
  suggestionsGcMs: 5 * 60_000,
} as const;

/**
 * Queries never retry on 401, 403 or 404 (asking again changes nothing: a missing matter stays missing, and its
 * 'not found' shows at once) and otherwise at most twice.
 */
const MAX_QUERY_RETRIES = 2;

function isFinalStatus(error: unknown): boolean {
  return isApiError(error) && (error.status === 401 || error.status === 403 || error.status === 404);
}

export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  if (isFinalStatus(error) || isMfaRequiredError(error)) return false;
  return failureCount < MAX_QUERY_RETRIES;
}

/** Codes that mean the session itself is gone, whichever call found out. */
export function isSessionLostError(error: unknown): boolean {
  return isApiError(error) && error.status === 401 && (error.code === 'SESSION_NOT_FOUND' || error.code === 'UNAUTHENTICATED');
}

export type QueryClientHooks = {
  onQueryError?: (error: unknown, query: Query<unknown, unknown, unknown>) => void;
  onQuerySuccess?: (data: unknown, query: Query<unknown, unknown, unknown>) => void;
  /** A mutation's answer said the session is gone. */
  onSessionLost?: () => void;
};

export function createAppQueryClient(hooks: QueryClientHooks = {}): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => hooks.onQueryError?.(error, query),
      onSuccess: (data, query) => hooks.onQuerySuccess?.(data, query),
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        // MFA demands are the dialog's business, never an error toast.
        if (isMfaRequiredError(error) || isMfaCancelledError(error)) return;
        // A call waiting for a second approver is the waiting dialog's business, never an error toast.
        if (isApprovalRequiredError(error)) return;
        if (isSessionLostError(error)) {
          hooks.onSessionLost?.();
          return;
        }
        if (mutation.options.onError || mutation.meta?.handlesError) return;
        toast.error(conflictText(error, mutation.meta?.operation ?? 'the operation') ?? errorMessage(error, MSG.unexpected));
      },
    }),
    defaultOptions: {
      queries: {
        retry: shouldRetryQuery,
        staleTime: CACHE_TIMES.defaultStaleMs,
        refetchOnWindowFocus: true,
        refetchOnReconnect: true,
      },
      // Races and locks are retried (details.reason RACE or LOCKED); nothing else is resent on its own.
      mutations: { retry: shouldRetryMutation, retryDelay: conflictRetryDelay },
    },
  });
}
