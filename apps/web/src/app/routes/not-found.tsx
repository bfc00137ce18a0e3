import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { useAppConfig } from '../../lib/app-config';
import { buttonStyles } from '../../components/ui/button';
import { Container } from '../../components/ui/container';

export default function NotFoundPage() {
  const { supportEmail } = useAppConfig();
  return (
    <Container className="flex flex-1 flex-col items-center justify-center py-24 text-center sm:py-32">
      <title>Page not found — OffZero</title>
      <p className="text-sm font-semibold tracking-wider text-brand-700 uppercase">404</p>
      <h1 className="mt-3 text-3xl font-bold tracking-tight text-ink-900 sm:text-5xl">Page not found</h1>
      <p className="mx-auto mt-5 max-w-md text-base leading-7 text-slate-600">
        Sorry, we couldn't find the page you were looking for. It may have moved, or the address may be
        mistyped.
      </p>
      <div className="mt-10 flex flex-wrap justify-center gap-3">
        <Link to={paths.home} className={buttonStyles({ variant: 'primary' })}>
          Back to home
        </Link>
        <a href={`mailto:${supportEmail}`} className={buttonStyles({ variant: 'outline' })}>
          Contact support
        </a>
      </div>
    </Container>
  );
}
