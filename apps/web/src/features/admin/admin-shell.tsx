import type { ComponentType, ReactNode } from 'react';
import { Link, Navigate, NavLink, Outlet, useLocation } from 'react-router';
import type { User } from '@offzero/shared/api/accounts';
import { paths } from '../../config/paths';
import { useCurrentUser } from '../../lib/current-user';
import { errorMessage } from '../../lib/api-client';
import { useLogout } from '../../lib/logout';
import { Logo } from '../../components/ui/logo';
import { Spinner } from '../../components/ui/spinner';
import { useNavigationDrawer } from '../../components/ui/use-navigation-drawer';
import { ButtonLink } from '../../components/ui/button';
import { PageLoadError } from '../../components/ui/page';
import {
  ArrowLeftIcon,
  BitcoinIcon,
  CloseIcon,
  IdCardIcon,
  InboxIcon,
  ListIcon,
  LockIcon,
  LogoutIcon,
  MenuIcon,
  ScrollIcon,
  SettingsIcon,
  ShieldIcon,
  TaxFormIcon,
  UsersIcon,
} from '../../components/ui/icons';
import { useMfaStatus } from './api/get-mfa-status';
import { useWorkQueue } from './api/get-work-queue';
import { useMonitoringCases } from './api/list-cases';
import { useKycCases } from './api/list-kyc-cases';
import { adminPaths } from './admin-paths';

const DRAWER_ID = 'admin-drawer';

/**
 * The back office's root route: only for admins. A visitor never gets here (the signed-in guard sends
 * them home); a signed-in customer sees "Not authorised" and nothing of the console. The server
 * refuses every /api/admin call to them anyway; this keeps the screens honest.
 */
export default function AdminShell() {
  const { data: user, isPending, error, refetch } = useCurrentUser();
  if (isPending) {
    return (
      <div
        role="status"
        aria-label="Loading the back office"
        className="flex flex-1 items-center justify-center p-10"
      >
        <Spinner className="size-6 text-slate-400" />
      </div>
    );
  }
  if (error || !user) {
    return (
      <div className="mx-auto w-full max-w-xl px-4 py-16">
        <PageLoadError message={errorMessage(error)} onRetry={() => void refetch()} />
      </div>
    );
  }
  if (user.role !== 'admin') return <NotAuthorised />;
  return <AdminLayout user={user} />;
}

export function NotAuthorised() {
  return (
    <main className="flex flex-1 items-center justify-center bg-slate-50 px-4 py-16">
      <title>Not authorised — OffZero</title>
      <div className="w-full max-w-md rounded-3xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-200">
        <span className="mx-auto inline-flex size-12 items-center justify-center rounded-2xl bg-red-50 text-red-600">
          <LockIcon className="size-6" />
        </span>
        <h1 className="mt-4 text-2xl font-bold tracking-tight text-ink-900">Not authorised</h1>
        <p className="mt-2 text-sm text-slate-600">
          This area is for OffZero staff only. Your account does not have access to it.
        </p>
        <ButtonLink to={paths.dashboard} className="mt-6">
          Go to your dashboard
        </ButtonLink>
      </div>
    </main>
  );
}

interface NavItem {
  to: string;
  label: string;
  icon: ComponentType<{ className?: string }>;
  end?: boolean;
  count?: number;
}

function useNavItems(): NavItem[] {
  const queue = useWorkQueue();
  const kyc = useKycCases('YELLOW');
  const openCases = useMonitoringCases({ status: 'open' }, { poll: true });
  const q = queue.data;
  const work = q
    ? q.paymentsToCheck.length + q.bitcoinToSend.length + q.sellPayoutsDue.length + q.flagged.length
    : undefined;
  return [
    { to: adminPaths.queue, label: 'Work queue', icon: InboxIcon, end: true, count: work },
    { to: adminPaths.orders, label: 'Orders', icon: ListIcon },
    { to: adminPaths.payouts, label: 'Payouts', icon: BitcoinIcon },
    { to: adminPaths.kyc, label: 'KYC review', icon: IdCardIcon, count: kyc.data?.cases.length },
    { to: adminPaths.cases, label: 'Cases', icon: ShieldIcon, count: openCases.data?.cases.length },
    { to: adminPaths.plans, label: 'Recurring buys', icon: ListIcon },
    { to: adminPaths.customers, label: 'Customers', icon: UsersIcon },
    { to: adminPaths.form1099Da(), label: 'Form 1099-DA', icon: TaxFormIcon },
    { to: adminPaths.settings, label: 'Settings', icon: SettingsIcon },
    { to: adminPaths.places, label: 'Places', icon: ShieldIcon },
    { to: adminPaths.audit, label: 'Audit log', icon: ScrollIcon },
    { to: adminPaths.security, label: 'Security', icon: LockIcon },
  ];
}

/** The console's own shell: a dark side bar with its sections, and a slim top bar. */
function AdminLayout({ user }: { user: User }) {
  const location = useLocation();
  // Production: nothing else of the back office answers until two-factor authentication is on.
  const mfa = useMfaStatus();
  const mustEnrol = mfa.data?.required === true && !mfa.data.enrolled;
  const items = useNavItems();
  const drawer = useNavigationDrawer({ drawerId: DRAWER_ID });

  const current = items.find((item) =>
    item.end ? location.pathname === item.to : location.pathname.startsWith(item.to),
  );

  return (
    <div className="flex flex-1 bg-slate-100/70" data-testid="admin-console">
      <a
        href="#admin-main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-[60] focus:rounded-full focus:bg-white focus:px-4 focus:py-2 focus:text-sm focus:font-semibold focus:shadow-lg"
      >
        Skip to content
      </a>

      <aside className="hidden w-60 shrink-0 bg-ink-900 lg:block">
        <div className="sticky top-0 h-full max-h-dvh">
          <SideNav items={items} user={user} />
        </div>
      </aside>

      <div
        aria-hidden="true"
        onClick={() => drawer.close()}
        className={`fixed inset-0 z-40 bg-ink-900/50 transition-opacity duration-200 lg:hidden ${
          drawer.isOpen ? 'opacity-100' : 'pointer-events-none opacity-0'
        }`}
      />
      <div
        id={DRAWER_ID}
        className={`fixed inset-y-0 left-0 z-50 w-[min(17rem,85vw)] shadow-2xl transition-[translate,visibility] duration-200 ease-out lg:hidden ${
          drawer.isOpen ? 'visible translate-x-0' : 'invisible -translate-x-full'
        }`}
      >
        <SideNav
          items={items}
          user={user}
          onNavigate={() => drawer.close()}
          closeButton={
            <button
              {...drawer.closeButtonProps}
              className="-mr-2 inline-flex size-10 items-center justify-center rounded-full text-slate-300 hover:bg-white/10 hover:text-white"
            >
              <CloseIcon />
            </button>
          }
        />
      </div>

      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur">
          <div className="flex h-14 items-center gap-3 px-4 sm:px-6 lg:px-8">
            <button
              {...drawer.toggleButtonProps}
              data-testid="admin-menu-toggle"
              className="-ml-2 inline-flex size-10 items-center justify-center rounded-full text-ink-900 hover:bg-slate-100 lg:hidden"
            >
              <MenuIcon className="size-6" />
            </button>
            <p className="min-w-0 flex-1 truncate text-sm text-slate-500">
              <span className="font-semibold text-ink-900">Back office</span>
              {current && (
                <>
                  <span aria-hidden="true" className="mx-2 text-slate-300">
                    /
                  </span>
                  {current.label}
                </>
              )}
            </p>
            <Link
              to={paths.dashboard}
              className="hidden items-center gap-1.5 rounded-full px-3 py-1.5 text-sm font-medium text-slate-600 hover:bg-slate-100 hover:text-ink-900 sm:inline-flex"
            >
              <ArrowLeftIcon className="size-4" />
              Customer dashboard
            </Link>
          </div>
        </header>
        <main id="admin-main" tabIndex={-1} className="flex flex-1 flex-col outline-none">
          <div className="mx-auto w-full max-w-[90rem] flex-1 px-4 py-5 sm:px-6 sm:py-6 lg:px-8">
            {mustEnrol && location.pathname !== adminPaths.security ? (
              <Navigate to={adminPaths.security} replace />
            ) : (
              <Outlet />
            )}
          </div>
        </main>
      </div>
    </div>
  );
}

function SideNav({
  items,
  user,
  closeButton,
  onNavigate,
}: {
  items: NavItem[];
  user: User;
  closeButton?: ReactNode;
  onNavigate?: () => void;
}) {
  const logout = useLogout();
  return (
    <nav aria-label="Back office" className="flex h-full flex-col overflow-y-auto bg-ink-900 text-slate-300">
      <div className="flex h-14 shrink-0 items-center justify-between px-5">
        <Link to={adminPaths.queue} className="flex items-center gap-2 rounded-lg" onClick={onNavigate}>
          {/* Named by its text (the word mark is an image): what is read starts with what is seen. */}
          <span className="sr-only">OffZero </span>
          <Logo tone="light" />
          <span className="rounded-md bg-brand-500/15 px-1.5 py-0.5 text-[10px] font-bold tracking-wider text-brand-400 uppercase">
            Staff
          </span>
          <span className="sr-only"> back office</span>
        </Link>
        {closeButton}
      </div>
      <ul className="flex flex-col gap-0.5 px-3 pt-3">
        {items.map(({ to, label, icon: Icon, end, count }) => (
          <li key={to}>
            <NavLink
              to={to}
              end={end}
              onClick={onNavigate}
              className={({ isActive }) =>
                `flex items-center gap-3 rounded-xl px-3 py-2 text-sm font-medium transition-colors ${
                  isActive ? 'bg-white/10 text-white' : 'text-slate-300 hover:bg-white/5 hover:text-white'
                }`
              }
            >
              {({ isActive }) => (
                <>
                  <Icon className={`size-5 ${isActive ? 'text-brand-500' : 'text-slate-400'}`} />
                  <span className="flex-1">{label}</span>
                  {count !== undefined && count > 0 && (
                    <span
                      aria-label={`${count} waiting`}
                      className="min-w-6 rounded-full bg-brand-500 px-1.5 py-0.5 text-center text-xs font-bold text-ink-900 tabular-nums"
                    >
                      {count}
                    </span>
                  )}
                </>
              )}
            </NavLink>
          </li>
        ))}
      </ul>
      <div className="mt-auto space-y-1 border-t border-white/10 px-3 py-4">
        <Link
          to={paths.dashboard}
          onClick={onNavigate}
          className="flex items-center gap-3 rounded-xl px-3 py-2 text-sm font-medium text-slate-300 hover:bg-white/5 hover:text-white"
        >
          <ArrowLeftIcon className="size-5 text-slate-400" />
          Customer dashboard
        </Link>
        <button
          type="button"
          onClick={() => logout.mutate()}
          disabled={logout.isPending}
          className="flex w-full items-center gap-3 rounded-xl px-3 py-2 text-left text-sm font-medium text-slate-300 hover:bg-white/5 hover:text-white disabled:opacity-60"
        >
          {logout.isPending ? (
            <Spinner className="size-5" />
          ) : (
            <LogoutIcon className="size-5 text-slate-400" />
          )}
          Logout
        </button>
        <p className="truncate px-3 pt-2 text-xs text-slate-400" title={user.email}>
          Signed in as {user.email}
        </p>
      </div>
    </nav>
  );
}
