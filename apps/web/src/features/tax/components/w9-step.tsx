import { Spinner } from '../../../components/ui/spinner';
import { deferredComponent } from '../../../lib/deferred-component';

/**
 * The W-9 form as the sell flow's tax details step. Only a seller without a W-9 on file sees it, so its
 * code loads when the flow shows it (or once the page is interactive, via `W9Step.preload`).
 */
export const W9Step = deferredComponent(
  async () => (await import('./w9-step-form')).W9StepForm,
  <div role="status" aria-label="Loading" className="flex justify-center py-10 text-orange-500">
    <Spinner className="size-6" />
  </div>,
);
