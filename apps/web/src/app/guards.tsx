import { Navigate, Outlet, useLocation } from 'react-router';
import { paths } from '../config/paths';
import { useSession } from '../lib/session';
import { sessionExpiredOnThisPage } from '../lib/session-storage';
import { sessionEndedUrl } from '../lib/session-return';

/**
 * Signed-in pages: a visitor is sent to the home page; a customer whose session expired here to the
 * login page, told so, and back to this page afterwards.
 */
export function RequireSignedIn() {
  const session = useSession();
  const location = useLocation();
  if (session) return <Outlet />;
  return <Navigate to={sessionExpiredOnThisPage() ? sessionEndedUrl(location) : paths.home} replace />;
}

/** Login and register: a signed-in customer goes straight to the dashboard. */
export function GuestOnly() {
  return useSession() ? <Navigate to={paths.dashboard} replace /> : <Outlet />;
}
