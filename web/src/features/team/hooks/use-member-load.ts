import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { TEAM_LIMITS, type ManagedUser } from '@strongroom/contracts';
import { teamQueryOptions } from '../api/get-team';
import { teamQueryKey } from '../lib/team-query-keys';

/**
 * The Manage drawer's reading of the member it opens on. Each opening reads the team again and waits the
 * loading delay (both keyed by the user opened), so the loading state shows for at least that long.
 */
export function useMemberLoad(userId: string | null) {
  const queryClient = useQueryClient();
  const [delayDoneFor, setDelayDoneFor] = useState<string | null>(null);
  const [fetchedFor, setFetchedFor] = useState<string | null>(null);
  const [fetchError, setFetchError] = useState<unknown>(null);

  useEffect(() => {
    if (userId === null) return;
    const timer = setTimeout(() => setDelayDoneFor(userId), TEAM_LIMITS.drawerLoadingDelayMs);
    let live = true;
    queryClient.fetchQuery({ ...teamQueryOptions(), staleTime: 0 }).then(
      () => live && setFetchedFor(userId),
      (err: unknown) => {
        if (!live) return;
        setFetchError(err);
        setFetchedFor(userId);
      },
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [userId, queryClient]);

  const loading = userId !== null && (delayDoneFor !== userId || fetchedFor !== userId);
  const fresh = userId ? queryClient.getQueryData<{ users: ManagedUser[] }>(teamQueryKey)?.users.find((u) => u.id === userId) : undefined;

  return {
    loading,
    /** The user as the last read of the team has them, if it has them. */
    fresh,
    /** Whether the read of this opening has answered (with or without the user); also true while closed. */
    fetched: fetchedFor === userId,
    fetchError,
    /** Reads the team again now: the user as stored, or undefined when the read fails or no longer has them. */
    reread: async (): Promise<ManagedUser | undefined> => {
      const data = await queryClient.fetchQuery({ ...teamQueryOptions(), staleTime: 0 }).catch(() => null);
      return data?.users.find((u) => u.id === userId);
    },
    /** Forgets this opening, so that the next one reads and waits again. */
    clear: () => {
      setFetchError(null);
      setDelayDoneFor(null);
      setFetchedFor(null);
    },
  };
}
