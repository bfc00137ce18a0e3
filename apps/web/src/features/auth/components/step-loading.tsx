import { Spinner } from '../../../components/ui/spinner';

/** Stands in for a login or registration step while its code loads. */
export function StepLoading() {
  return (
    <div className="flex justify-center py-8" role="status" aria-label="Loading">
      <Spinner />
    </div>
  );
}
