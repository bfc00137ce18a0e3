import { Navigate, Outlet } from 'react-router';
import { paths } from '../config/paths';
import { useSession } from '../lib/session';

/** Signed-in pages: a visitor (or an expired session) is sent to the home page. */
export function RequireSignedIn() {
  return useSession() ? <Outlet /> : <Navigate to={paths.home} replace />;
}

/** Login and register: a signed-in customer goes straight to the dashboard. */
export function GuestOnly() {
  return useSession() ? <Navigate to={paths.dashboard} replace /> : <Outlet />;
}
