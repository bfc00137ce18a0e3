import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../../lib/api-client';
import { saveBlob } from '../../../lib/save-blob';
import { toast } from '../../../lib/toast';
import { Button } from '../../../components/ui/button';
import { PageLoadError } from '../../../components/ui/page';
import { inputStyles } from '../../../components/ui/text-field';
import { achFileKey, downloadAchFile, useAchFileSummary } from '../api/ach-file';
import { adminPaths } from '../admin-paths';
import { IdWithCopy, Panel } from '../components/blocks';
import { formatDateTime } from '../../../lib/format';
import { shortOrderId } from '../format';

/** Today in New York, the bank's day (docs/design.md, "ACH file"). */
function newYorkToday(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(new Date());
}

/**
 * The day's ACH sell payouts as one NACHA file for the bank's upload page. The first download marks
 * them sent; the same day's file downloads again as the same file.
 */
export function AchFilePanel() {
  const [date, setDate] = useState(newYorkToday);
  const summary = useAchFileSummary(date);
  const queryClient = useQueryClient();
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState<string | null>(null);

  const download = async () => {
    setDownloading(true);
    setDownloadError(null);
    try {
      const file = await downloadAchFile(date);
      saveBlob(file.blob, file.filename ?? `offzero-ach-${date}.txt`);
      toast.success('ACH file downloaded. Upload it to the bank; its payouts are marked sent.');
    } catch (error) {
      setDownloadError(errorMessage(error));
    } finally {
      setDownloading(false);
      await queryClient.invalidateQueries({ queryKey: achFileKey(date) });
    }
  };

  const data = summary.data;
  const count = data?.entryCount ?? 0;

  return (
    <Panel
      title="ACH file"
      testId="ach-file"
      actions={
        <div className="flex flex-wrap items-end gap-2">
          <label className="text-xs font-medium text-slate-600">
            Day (New York)
            <input
              type="date"
              value={date}
              max={newYorkToday()}
              onChange={(event) => setDate(event.target.value)}
              className={inputStyles(false, 'mt-1 h-10 w-40')}
              data-testid="ach-file-date"
            />
          </label>
          <Button
            onClick={() => void download()}
            loading={downloading}
            disabled={!data}
            data-testid="ach-file-download"
          >
            {data?.downloaded ? 'Download again' : 'Download ACH file'}
          </Button>
        </div>
      }
    >
      {downloadError && (
        <p role="alert" className="mb-3 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
          {downloadError}
        </p>
      )}
      {summary.isError ? (
        <PageLoadError message={errorMessage(summary.error)} onRetry={() => void summary.refetch()} />
      ) : !data ? (
        <p className="text-sm text-slate-600">Loading the day’s ACH payouts…</p>
      ) : (
        <div className="space-y-2 text-sm text-slate-700">
          <p data-testid="ach-file-figures">
            <span className="font-semibold text-ink-900">
              {count} payout{count === 1 ? '' : 's'}, ${data.total}
            </span>{' '}
            {data.downloaded
              ? `in the file downloaded ${data.downloadedAt ? formatDateTime(data.downloadedAt) : ''}; they settle on ${data.effectiveEntryDate}.`
              : `due by the end of ${data.date}; they settle on ${data.effectiveEntryDate} once the file is uploaded.`}
          </p>
          {data.skipped.length > 0 && (
            <div className="rounded-lg bg-amber-50 px-3 py-2 text-amber-900">
              <p className="font-medium">Not in the file — pay these by hand from their order page:</p>
              <ul className="mt-1 space-y-1">
                {data.skipped.map((row) => (
                  <li key={row.orderId} className="flex flex-wrap items-center gap-2">
                    <IdWithCopy
                      value={row.orderId}
                      label="Copy order id"
                      display={shortOrderId(row.orderId)}
                      to={adminPaths.order(row.orderId)}
                    />
                    <span className="text-xs">{row.reason}</span>
                  </li>
                ))}
              </ul>
            </div>
          )}
          <p className="text-xs text-slate-500">
            Flagged sells and deposits still confirming are left out. Once the bank confirms a payout, record
            its reference with “Record USD payout” on the order.
          </p>
        </div>
      )}
    </Panel>
  );
}
