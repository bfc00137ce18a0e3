import { Button } from '../../../components/ui/button';
import { AlertIcon, CheckIcon } from '../../../components/ui/icons';

/** Kept in view at the bottom: whether anything is unsaved or how the last save went, and the buttons. */
export function SettingsSaveBar({
  status,
  changed,
  saving,
  onDiscard,
}: {
  status: { tone: 'success' | 'error'; text: string } | null;
  changed: boolean;
  saving: boolean;
  onDiscard: () => void;
}) {
  return (
    <div className="sticky bottom-0 z-20 -mx-4 border-t border-slate-200 bg-white/95 px-4 py-3 backdrop-blur sm:-mx-6 sm:px-6 lg:-mx-8 lg:px-8">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p role="status" aria-live="polite" className="min-h-5 text-sm" data-testid="settings-status">
          {status ? (
            <span
              className={`inline-flex items-start gap-1.5 ${status.tone === 'success' ? 'text-emerald-700' : 'text-red-700'}`}
            >
              {status.tone === 'success' ? (
                <CheckIcon className="mt-0.5 size-4 shrink-0" />
              ) : (
                <AlertIcon className="mt-0.5 size-4 shrink-0" />
              )}
              {status.text}
            </span>
          ) : changed ? (
            <span className="text-amber-700">You have unsaved changes.</span>
          ) : (
            <span className="text-slate-500">All changes saved.</span>
          )}
        </p>
        <div className="flex gap-2">
          <Button variant="outline" onClick={onDiscard} disabled={!changed || saving}>
            Discard
          </Button>
          <Button type="submit" loading={saving} disabled={!changed} className="flex-1 sm:flex-none">
            Save settings
          </Button>
        </div>
      </div>
    </div>
  );
}
