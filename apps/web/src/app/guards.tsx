import { Navigate, Outlet } from 'react-router';
import { paths } from '../config/paths';
import { getSession } from '../lib/session-storage';

/** Signed-in pages: a visitor (or an expired session) is sent to the home page. */
export function RequireSignedIn() {
  return getSession() ? <Outlet /> : <Navigate to={paths.home} replace />;
}

/** Login and register: a signed-in customer goes straight to the dashboard. */
export function GuestOnly() {
  return getSession() ? <Navigate to={paths.dashboard} replace /> : <Outlet />;
}
