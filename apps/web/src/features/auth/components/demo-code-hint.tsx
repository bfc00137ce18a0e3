import { Link } from 'react-router';
import { useAppConfig } from '../../../lib/app-config';
import { paths } from '../../../config/paths';

/** In demo mode nothing is really sent: point to the outbox where the code can be read. */
export function DemoCodeHint({ recipient }: { recipient: string }) {
  const { mode } = useAppConfig();
  if (mode !== 'demo') return null;
  return (
    <p className="rounded-xl bg-brand-50 px-4 py-3 text-sm text-ink-900 ring-1 ring-brand-200">
      Demo mode: nothing is really sent. Read your code in the{' '}
      <Link
        to={`${paths.devOutbox}?to=${encodeURIComponent(recipient)}`}
        target="_blank"
        className="font-semibold text-brand-700 underline underline-offset-2"
      >
        demo outbox<span className="sr-only"> (opens in a new tab)</span>
      </Link>
      .
    </p>
  );
}
