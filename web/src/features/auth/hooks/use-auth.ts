import { useSession } from '../api/get-session';
import { deriveAuthState, type AuthState } from './auth-state';

export function useAuth(): AuthState & { refetch: () => void; isFetching: boolean } {
  const query = useSession();
  const state = deriveAuthState({ isPending: query.isPending, data: query.data, error: query.error });
  return { ...state, refetch: () => void query.refetch(), isFetching: query.isFetching };
}
