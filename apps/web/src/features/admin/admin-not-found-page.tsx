import { ButtonLink } from '../../components/ui/button';
import { EmptyState } from './components/blocks';
import { adminPaths } from './admin-paths';

export default function AdminNotFoundPage() {
  return (
    <div className="rounded-2xl bg-white shadow-sm ring-1 ring-slate-200/80">
      <title>Not found — OffZero back office</title>
      <EmptyState title="There is no such page in the back office." />
      <div className="flex justify-center pb-8">
        <ButtonLink to={adminPaths.queue} variant="outline" size="sm">
          Go to the work queue
        </ButtonLink>
      </div>
    </div>
  );
}
