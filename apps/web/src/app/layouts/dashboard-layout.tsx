import { Outlet } from 'react-router';

// Placeholder for the signed-in shell (top bar and side drawer), built with the accounts feature.
export function DashboardLayout() {
  return (
    <main className="min-h-screen bg-slate-50">
      <Outlet />
    </main>
  );
}
