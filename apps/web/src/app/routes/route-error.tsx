import { Link, isRouteErrorResponse, useRouteError } from 'react-router';
import { paths } from '../../config/paths';
import { Button, buttonStyles } from '../../components/ui/button';
import { Container } from '../../components/ui/container';
import { Logo } from '../../components/ui/logo';

/**
 * The router's error boundary. It replaces the whole page (layouts included), so it brings its own
 * minimal header and depends on nothing that could itself have failed.
 */
export function RouteErrorPage() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;

  return (
    <div className="flex min-h-dvh flex-col bg-slate-50">
      <title>{notFound ? 'Page not found — OffZero' : 'Something went wrong — OffZero'}</title>
      <header className="border-b border-slate-200 bg-white">
        <Container className="flex h-16 items-center">
          <Link to={paths.home} aria-label="OffZero home" className="rounded-lg">
            <Logo />
          </Link>
        </Container>
      </header>
      <main className="flex flex-1 items-center">
        <Container className="py-20 text-center">
          {notFound ? (
            <>
              <p className="text-sm font-semibold tracking-wider text-brand-700 uppercase">404</p>
              <h1 className="mt-3 text-3xl font-bold tracking-tight text-ink-900 sm:text-4xl">
                Page not found
              </h1>
              <p className="mx-auto mt-4 max-w-md text-base leading-7 text-slate-600">
                The page you are looking for does not exist or has moved.
              </p>
            </>
          ) : (
            <>
              <h1 className="text-3xl font-bold tracking-tight text-ink-900 sm:text-4xl">
                Unexpected Application Error!
              </h1>
              <p className="mx-auto mt-4 max-w-md text-base leading-7 text-slate-600">
                Something went wrong on our side while showing this page. Please go back to the home page and
                try again; if it keeps happening, let our support team know.
              </p>
            </>
          )}
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            <Link to={paths.home} className={buttonStyles({ variant: 'secondary' })}>
              Back to home
            </Link>
            {!notFound && (
              <Button variant="outline" onClick={() => window.location.reload()}>
                Reload the page
              </Button>
            )}
          </div>
        </Container>
      </main>
    </div>
  );
}
