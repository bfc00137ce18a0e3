import { useEffect, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import type { User } from '@offzero/shared/api/accounts';
import { paths } from '../../config/paths';
import { useAppConfig } from '../../lib/app-config';
import { displayName, initials, useCurrentUser } from '../../lib/current-user';
import { useLogout } from '../../lib/logout';
import { Logo } from '../../components/ui/logo';
import { SocialLinks } from '../../components/ui/social-links';
import { Spinner } from '../../components/ui/spinner';
import { useNavigationDrawer } from '../../components/ui/use-navigation-drawer';
import {
  ChevronDownIcon,
  CloseIcon,
  HelpIcon,
  HomeIcon,
  ListIcon,
  LogoutIcon,
  MenuIcon,
  SettingsIcon,
  ShieldIcon,
} from '../../components/ui/icons';

const DRAWER_ID = 'dashboard-drawer';

interface NavItem {
  to: string;
  label: string;
  icon: ComponentType<{ className?: string }>;
  end?: boolean;
}

const navItems: NavItem[] = [
  { to: paths.dashboard, label: 'Dashboard', icon: HomeIcon, end: true },
  { to: paths.orders, label: 'My Orders', icon: ListIcon },
  { to: paths.settings, label: 'Settings', icon: SettingsIcon },
];

/**
 * The signed-in shell: a side drawer with the logo, the customer's pages and the
 * social links, and a top bar with the title, a help link and the account menu. Below 1024 px the
 * drawer slides in from the left behind the menu button.
 */
export function DashboardLayout() {
  const { data: user } = useCurrentUser();
  const drawer = useNavigationDrawer({ drawerId: DRAWER_ID });

  return (
    <div className="flex flex-1 bg-slate-50">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-[60] focus:rounded-full focus:bg-white focus:px-4 focus:py-2 focus:text-sm focus:font-semibold focus:shadow-lg"
      >
        Skip to content
      </a>

      {/* Wide screens: the drawer is always there. */}
      <aside className="hidden w-64 shrink-0 bg-ink-900 lg:block">
        <div className="sticky top-0 h-full max-h-dvh">
          <SideNav user={user} />
        </div>
      </aside>

      {/* Small screens: the same drawer over the page. */}
      <div
        aria-hidden="true"
        onClick={() => drawer.close()}
        className={`fixed inset-0 z-40 bg-ink-900/50 transition-opacity duration-200 lg:hidden ${
          drawer.isOpen ? 'opacity-100' : 'pointer-events-none opacity-0'
        }`}
      />
      <div
        id={DRAWER_ID}
        data-testid="dashboard-drawer"
        className={`fixed inset-y-0 left-0 z-50 w-[min(18rem,85vw)] shadow-2xl transition-[translate,visibility] duration-200 ease-out lg:hidden ${
          drawer.isOpen ? 'visible translate-x-0' : 'invisible -translate-x-full'
        }`}
      >
        <SideNav
          user={user}
          closeButton={
            <button
              {...drawer.closeButtonProps}
              className="-mr-2 inline-flex size-10 items-center justify-center rounded-full text-slate-300 hover:bg-white/10 hover:text-white"
            >
              <CloseIcon />
            </button>
          }
          onNavigate={() => drawer.close()}
        />
      </div>

      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur">
          <div className="flex h-16 items-center gap-3 px-4 sm:px-6 lg:px-8">
            <button
              {...drawer.toggleButtonProps}
              data-testid="dashboard-menu-toggle"
              className="-ml-2 inline-flex size-11 items-center justify-center rounded-full text-ink-900 hover:bg-slate-100 lg:hidden"
            >
              <MenuIcon className="size-6" />
            </button>
            <p className="flex-1 truncate text-lg font-semibold text-ink-900">Dashboard</p>
            <HelpLink />
            <AccountMenu user={user} />
          </div>
        </header>
        <main id="main" tabIndex={-1} className="flex flex-1 flex-col outline-none">
          <Outlet />
        </main>
      </div>
    </div>
  );
}

function SideNav({
  user,
  closeButton,
  onNavigate,
}: {
  user: User | undefined;
  closeButton?: ReactNode;
  onNavigate?: () => void;
}) {
  // The back office link is a convenience for admins; the server decides what each role may do.
  const items: NavItem[] =
    user?.role === 'admin' ? [...navItems, { to: paths.admin, label: 'Admin', icon: ShieldIcon }] : navItems;

  return (
    <nav aria-label="Account" className="flex h-full flex-col overflow-y-auto bg-ink-900 text-slate-300">
      <div className="flex h-16 shrink-0 items-center justify-between px-5">
        <Link to={paths.dashboard} aria-label="OffZero dashboard" className="rounded-lg" onClick={onNavigate}>
          <Logo tone="light" />
        </Link>
        {closeButton}
      </div>
      <ul className="flex flex-col gap-1 px-3 pt-4">
        {items.map(({ to, label, icon: Icon, end }) => (
          <li key={to}>
            <NavLink
              to={to}
              end={end}
              onClick={onNavigate}
              className={({ isActive }) =>
                `flex items-center gap-3 rounded-xl px-3.5 py-2.5 text-sm font-medium transition-colors ${
                  isActive ? 'bg-white/10 text-white' : 'text-slate-300 hover:bg-white/5 hover:text-white'
                }`
              }
            >
              {({ isActive }) => (
                <>
                  <Icon className={`size-5 ${isActive ? 'text-brand-500' : 'text-slate-400'}`} />
                  {label}
                </>
              )}
            </NavLink>
          </li>
        ))}
      </ul>
      <div className="mt-auto border-t border-white/10 px-5 py-5">
        <p className="text-xs font-medium text-slate-400">Follow OffZero</p>
        <SocialLinks className="mt-3 gap-2" buttonSize="size-9" />
      </div>
    </nav>
  );
}

function HelpLink() {
  const { supportEmail } = useAppConfig();
  return (
    <a
      href={`mailto:${supportEmail}`}
      className="inline-flex items-center gap-1.5 rounded-full px-3 py-2 text-sm font-medium text-slate-600 hover:bg-slate-100 hover:text-ink-900"
    >
      <HelpIcon className="size-4.5" />
      Help?
    </a>
  );
}

/** The avatar button and its menu: who is signed in, Settings and Logout. */
function AccountMenu({ user }: { user: User | undefined }) {
  const location = useLocation();
  const [openedOn, setOpenedOn] = useState<string | null>(null);
  const open = openedOn === location.key;
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const logout = useLogout();

  useEffect(() => {
    if (!open) return;
    menuRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpenedOn(null);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpenedOn(null);
        buttonRef.current?.focus();
        return;
      }
      if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
      const items = Array.from(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
      const index = items.indexOf(document.activeElement as HTMLElement);
      const next = event.key === 'ArrowDown' ? index + 1 : index - 1;
      items[(next + items.length) % items.length]?.focus();
      event.preventDefault();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  const itemClass =
    'flex w-full items-center gap-3 rounded-lg px-3 py-2.5 text-left text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-ink-900 focus:bg-slate-100 focus:outline-none disabled:opacity-60';

  return (
    <div ref={rootRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label="Account menu"
        data-testid="account-menu-button"
        onClick={() => setOpenedOn(open ? null : location.key)}
        className="flex items-center gap-1.5 rounded-full p-0.5 pr-1.5 hover:bg-slate-100"
      >
        <Avatar user={user} />
        <ChevronDownIcon className="size-4 text-slate-500" />
      </button>
      {open && (
        <div
          ref={menuRef}
          role="menu"
          aria-label="Account"
          className="absolute right-0 z-40 mt-2 w-64 rounded-2xl bg-white p-1.5 shadow-xl ring-1 ring-slate-200"
        >
          {user && (
            <div className="border-b border-slate-100 px-3 pt-2 pb-3">
              {displayName(user) !== user.email && (
                <p className="truncate text-sm font-semibold text-ink-900">{displayName(user)}</p>
              )}
              <p className="text-xs wrap-anywhere text-slate-600">{user.email}</p>
            </div>
          )}
          <div className="pt-1.5">
            <Link to={paths.settings} role="menuitem" className={itemClass} onClick={() => setOpenedOn(null)}>
              <SettingsIcon className="size-4.5 text-slate-500" />
              Settings
            </Link>
            <button
              type="button"
              role="menuitem"
              className={itemClass}
              disabled={logout.isPending}
              onClick={() => logout.mutate()}
            >
              {logout.isPending ? (
                <Spinner className="size-4.5" />
              ) : (
                <LogoutIcon className="size-4.5 text-slate-500" />
              )}
              Logout
            </button>
          </div>
        </div>
      )}
    </div>
  );
}

function Avatar({ user }: { user: User | undefined }) {
  const [imageFailed, setImageFailed] = useState(false);
  if (user?.image && !imageFailed) {
    return (
      <img
        src={user.image}
        alt=""
        referrerPolicy="no-referrer"
        onError={() => setImageFailed(true)}
        className="size-9 rounded-full object-cover ring-1 ring-slate-200"
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      className="inline-flex size-9 items-center justify-center rounded-full bg-ink-900 text-sm font-semibold text-white"
    >
      {user ? initials(user) : ''}
    </span>
  );
}
