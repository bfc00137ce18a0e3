import { useNavigate } from 'react-router';
import type { LoginResponse } from '@offzero/shared/api/accounts';
import { paths } from '../../config/paths';
import { signIn } from '../../lib/session';
import { useStoreCurrentUser } from '../../lib/current-user';

/**
 * After any successful login (code, Google, or the end of registration): keep the session, go in. An
 * admin with two-factor authentication is sent to the login's second step instead.
 */
export function useCompleteSignIn(): (session: LoginResponse) => void {
  const navigate = useNavigate();
  const storeUser = useStoreCurrentUser();
  return (session) => {
    if ('mfaRequired' in session) {
      void navigate(paths.login, { replace: true, state: { mfaToken: session.mfaToken } });
      return;
    }
    storeUser(session.user);
    signIn(session.token);
    void navigate(paths.dashboard, { replace: true });
  };
}
