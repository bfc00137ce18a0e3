import { useRef, useState, type ReactNode } from 'react';
import { Link, NavLink, Outlet } from 'react-router';
import { paths } from '../../config/paths';
import { useAppConfig } from '../../lib/app-config';
import { ButtonLink } from '../../components/ui/button';
import { Container } from '../../components/ui/container';
import { Logo } from '../../components/ui/logo';
import { SocialLinks } from '../../components/ui/social-links';
import { useNavigationDrawer } from '../../components/ui/use-navigation-drawer';
import { CloseIcon, ExternalLinkIcon, MailIcon, MapPinIcon, MenuIcon } from '../../components/ui/icons';

const TAGLINE = 'The safest and easiest way to buy Bitcoin. Get Off Zero!';

/** Header, page and footer of the pages a visitor sees before signing in. */
export function PublicLayout() {
  return (
    <div className="flex flex-1 flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-[60] focus:rounded-full focus:bg-white focus:px-4 focus:py-2 focus:text-sm focus:font-semibold focus:shadow-lg"
      >
        Skip to content
      </a>
      <SiteHeader />
      <main id="main" className="flex flex-1 flex-col">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}

const DRAWER_ID = 'mobile-drawer';

function SiteHeader() {
  const { blogUrl } = useAppConfig();
  const headerRef = useRef<HTMLElement>(null);
  // The drawer opens below the header, wherever the header's bottom is at that moment.
  const [drawerTop, setDrawerTop] = useState(64);
  const drawer = useNavigationDrawer({
    drawerId: DRAWER_ID,
    beforeOpen: () => setDrawerTop(headerRef.current?.getBoundingClientRect().bottom ?? 64),
  });

  const navLinkClass = ({ isActive }: { isActive: boolean }) =>
    `rounded-full px-3.5 py-2 text-sm font-medium transition-colors ${
      isActive ? 'bg-slate-100 text-ink-900' : 'text-slate-600 hover:bg-slate-50 hover:text-ink-900'
    }`;

  return (
    <>
      <header
        ref={headerRef}
        data-testid="site-header"
        className="sticky top-0 z-40 border-b border-slate-200/80 bg-white"
      >
        <Container className="flex h-16 items-center justify-between gap-4">
          <Link to={paths.home} aria-label="OffZero home" className="rounded-lg">
            <Logo />
          </Link>

          <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
            <NavLink to={paths.home} end className={navLinkClass}>
              Home
            </NavLink>
            <NavLink to={paths.about} className={navLinkClass}>
              About Us
            </NavLink>
            <ExternalLink
              href={blogUrl}
              className={navLinkClass({ isActive: false }) + ' inline-flex items-center gap-1'}
            >
              Blogs
            </ExternalLink>
          </nav>

          <div className="hidden items-center gap-2 md:flex">
            <ButtonLink to={paths.login} variant="ghost" size="sm">
              Login
            </ButtonLink>
            <ButtonLink to={paths.register} variant="primary" size="sm">
              Register
            </ButtonLink>
          </div>

          <button
            {...drawer.toggleButtonProps}
            data-testid="menu-toggle"
            className="-mr-2 inline-flex size-11 items-center justify-center rounded-full text-ink-900 hover:bg-slate-100 md:hidden"
          >
            {drawer.isOpen ? <CloseIcon className="size-6" /> : <MenuIcon className="size-6" />}
          </button>
        </Container>
      </header>

      <MobileDrawer drawer={drawer} top={drawerTop} blogUrl={blogUrl} />
    </>
  );
}

/** Small screens: the same links in a drawer sliding in from the right, under the header. */
function MobileDrawer({
  drawer,
  top: drawerTop,
  blogUrl,
}: {
  drawer: ReturnType<typeof useNavigationDrawer>;
  /** Where the header's bottom was when the drawer opened. */
  top: number;
  blogUrl: string;
}) {
  const drawerLinkClass = ({ isActive }: { isActive: boolean }) =>
    `flex items-center justify-between rounded-xl px-4 py-3 text-base font-medium transition-colors ${
      isActive ? 'bg-brand-50 text-ink-900' : 'text-slate-700 hover:bg-slate-50'
    }`;

  return (
    <>
      <div
        aria-hidden="true"
        onClick={() => drawer.close()}
        style={{ top: drawerTop }}
        className={`fixed inset-x-0 bottom-0 z-30 bg-ink-900/40 transition-opacity duration-200 md:hidden ${
          drawer.isOpen ? 'opacity-100' : 'pointer-events-none opacity-0'
        }`}
      />
      <nav
        id={DRAWER_ID}
        data-testid="mobile-drawer"
        aria-label="Mobile"
        style={{ top: drawerTop }}
        className={`fixed right-0 bottom-0 z-30 flex w-[min(20rem,85vw)] flex-col overflow-y-auto bg-white shadow-2xl transition-[translate,visibility] duration-200 ease-out md:hidden ${
          drawer.isOpen ? 'visible translate-x-0' : 'invisible translate-x-full'
        }`}
      >
        <div className="flex items-center justify-between border-b border-slate-100 px-5 py-3">
          <span className="text-xs font-semibold tracking-wider text-slate-500 uppercase">Menu</span>
          <button
            {...drawer.closeButtonProps}
            className="-mr-2 inline-flex size-10 items-center justify-center rounded-full text-slate-600 hover:bg-slate-100"
          >
            <CloseIcon />
          </button>
        </div>
        <ul className="flex flex-col gap-1 p-3">
          <li>
            <NavLink to={paths.home} end className={drawerLinkClass} onClick={() => drawer.close()}>
              Home
            </NavLink>
          </li>
          <li>
            <NavLink to={paths.about} className={drawerLinkClass} onClick={() => drawer.close()}>
              About Us
            </NavLink>
          </li>
          <li>
            <ExternalLink
              href={blogUrl}
              className={drawerLinkClass({ isActive: false })}
              onClick={() => drawer.close()}
            >
              Blogs
            </ExternalLink>
          </li>
        </ul>
        <div className="mt-auto flex flex-col gap-3 border-t border-slate-100 p-5">
          <ButtonLink to={paths.login} variant="outline" fullWidth onClick={() => drawer.close()}>
            Login
          </ButtonLink>
          <ButtonLink to={paths.register} variant="primary" fullWidth onClick={() => drawer.close()}>
            Register
          </ButtonLink>
        </div>
      </nav>
    </>
  );
}

/** A link that leaves the site: new tab, no opener access, and says so to screen readers. */
function ExternalLink({
  href,
  className,
  children,
  onClick,
}: {
  href: string;
  className?: string;
  children: ReactNode;
  onClick?: () => void;
}) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={className} onClick={onClick}>
      <span>{children}</span>
      <ExternalLinkIcon className="size-3.5 opacity-60" />
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  );
}

function SiteFooter() {
  const { supportEmail, blogUrl, postalAddress } = useAppConfig();
  const linkClass = 'text-sm text-slate-300 transition-colors hover:text-white';

  return (
    <footer data-testid="site-footer" className="bg-ink-900 text-slate-300">
      <Container className="grid grid-cols-2 gap-x-6 gap-y-10 py-14 lg:grid-cols-[1.6fr_1fr_1fr_1.3fr] lg:gap-12">
        <div className="col-span-2 lg:col-span-1">
          <Link to={paths.home} aria-label="OffZero home" className="inline-block rounded-lg">
            <Logo tone="light" />
          </Link>
          <p className="mt-4 max-w-xs text-sm leading-6 text-slate-400">{TAGLINE}</p>
          <SocialLinks className="mt-6 gap-3" buttonSize="size-10" />
        </div>

        <FooterColumn title="Company">
          <li>
            <Link to={paths.about} className={linkClass}>
              About Us
            </Link>
          </li>
          <li>
            <a href={blogUrl} target="_blank" rel="noopener noreferrer" className={linkClass}>
              Blogs<span className="sr-only"> (opens in a new tab)</span>
            </a>
          </li>
          <li>
            <a href={`mailto:${supportEmail}`} className={linkClass}>
              Contact
            </a>
          </li>
        </FooterColumn>

        <FooterColumn title="Legal">
          <li>
            <Link to={paths.termsOfUse} className={linkClass}>
              Terms of use
            </Link>
          </li>
          <li>
            <Link to={paths.privacyPolicy} className={linkClass}>
              Privacy policy
            </Link>
          </li>
          <li>
            <Link to={paths.cookiePolicy} className={linkClass}>
              Cookie policy
            </Link>
          </li>
          <li>
            <Link to={paths.refundPolicy} className={linkClass}>
              Refund policy
            </Link>
          </li>
        </FooterColumn>

        <div className="col-span-2 lg:col-span-1">
          <h2 className="text-sm font-semibold text-white">Get in touch</h2>
          <ul className="mt-4 space-y-3 text-sm">
            <li className="flex gap-3">
              <MailIcon className="mt-0.5 size-4 shrink-0 text-brand-500" />
              <a href={`mailto:${supportEmail}`} className="wrap-break-word text-slate-300 hover:text-white">
                {supportEmail}
              </a>
            </li>
            <li className="flex gap-3">
              <MapPinIcon className="mt-0.5 size-4 shrink-0 text-brand-500" />
              <address className="leading-6 text-slate-300 not-italic">{postalAddress}</address>
            </li>
          </ul>
        </div>
      </Container>

      <div className="border-t border-white/10">
        <Container className="flex flex-col gap-2 py-6 text-xs text-slate-400 sm:flex-row sm:items-center sm:justify-between">
          <p>© 2024 OffZero. All rights reserved.</p>
          <p>Built by the OffZero team</p>
        </Container>
      </div>
    </footer>
  );
}

function FooterColumn({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div>
      <h2 className="text-sm font-semibold text-white">{title}</h2>
      <ul className="mt-4 space-y-3">{children}</ul>
    </div>
  );
}
