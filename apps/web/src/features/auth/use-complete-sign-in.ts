import { useLocation, useNavigate } from 'react-router';
import type { LoginResponse } from '@offzero/shared/api/accounts';
import { paths } from '../../config/paths';
import { signIn } from '../../lib/session';
import { returnPathOf } from '../../lib/session-return';
import { useStoreCurrentUser } from '../../lib/current-user';

/**
 * After any successful login (code, Google, or the end of registration): keep the session, go in (back
 * to the page where a session ended, else the dashboard). An admin with two-factor authentication is
 * sent to the login's second step instead.
 */
export function useCompleteSignIn(): (session: LoginResponse) => void {
  const navigate = useNavigate();
  const { search } = useLocation();
  const storeUser = useStoreCurrentUser();
  return (session) => {
    if ('mfaRequired' in session) {
      void navigate(
        { pathname: paths.login, search },
        { replace: true, state: { mfaToken: session.mfaToken } },
      );
      return;
    }
    storeUser(session.user);
    signIn(session.token);
    void navigate(returnPathOf(search) ?? paths.dashboard, { replace: true });
  };
}
