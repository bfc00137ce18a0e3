import { paths } from '../../config/paths';
import { ButtonLink } from '../../components/ui/button';

// Placeholder until the back office is built (DESIGN.md section 5: /admin/*, admin only).
export default function AdminPlaceholderPage() {
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-16 text-center sm:px-6">
      <title>Back office — OffZero</title>
      <h1 className="text-2xl font-bold tracking-tight text-ink-900">Back office</h1>
      <p className="mt-2 text-slate-600">The back office is not available in this version yet.</p>
      <ButtonLink to={paths.dashboard} variant="outline" className="mt-6">
        Back to the dashboard
      </ButtonLink>
    </div>
  );
}
