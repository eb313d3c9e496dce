import type { SessionUser } from '@strongroom/contracts';
import { useSession } from '../api/get-session';

/** The signed-in user, or null. Inside the protected shell it is always set. */
export function useCurrentUser(): SessionUser | null {
  return useSession().data?.user ?? null;
}
