import { useNavigate } from 'react-router';
import type { SessionResponse } from '@offzero/shared/api/accounts';
import { paths } from '../../config/paths';
import { signIn } from '../../lib/session';
import { useStoreCurrentUser } from '../../lib/current-user';

/** After any successful login (code, Google, or the end of registration): keep the session, go in. */
export function useCompleteSignIn(): (session: SessionResponse) => void {
  const navigate = useNavigate();
  const storeUser = useStoreCurrentUser();
  return (session) => {
    storeUser(session.user);
    signIn(session.token);
    void navigate(paths.dashboard, { replace: true });
  };
}
