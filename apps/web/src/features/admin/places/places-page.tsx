import { useState } from 'react';
import type { Jurisdiction } from '@offzero/shared/places/places';
import { Button } from '../../../components/ui/button';
import { PageLoadError, PageSkeleton } from '../../../components/ui/page';
import { TextField } from '../../../components/ui/text-field';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useAdminJurisdictions, useSaveJurisdiction } from '../api/jurisdictions';
import { AdminPageHeader, Panel } from '../components/blocks';

const usdOrNull = (text: string): number | null => (text.trim() === '' ? null : Number(text));

/** One place's rules as an editable row: a change waits for a second admin (four eyes). */
function PlaceEditor({ place, onDone }: { place: Jurisdiction; onDone: () => void }) {
  const save = useSaveJurisdiction();
  const [buy, setBuy] = useState(place.buy);
  const [sell, setSell] = useState(place.sell);
  const [cap, setCap] = useState(place.newCustomerDailyUsd?.toString() ?? '');
  const [max, setMax] = useState(place.orderMaxUsd?.toString() ?? '');
  const [licence, setLicence] = useState(place.licence);
  const [disclosures, setDisclosures] = useState(place.disclosures);
  const submit = () =>
    save.mutate(
      {
        code: place.code,
        rules: {
          buy,
          sell,
          newCustomerDailyUsd: usdOrNull(cap),
          orderMaxUsd: usdOrNull(max),
          licence,
          disclosures,
        },
      },
      {
        onSuccess: (answer) => {
          toast.success(answer.message);
          onDone();
        },
        onError: (error) => toast.error(errorMessage(error)),
      },
    );
  return (
    <div className="space-y-3 border-t border-slate-100 p-4" data-testid={`place-editor-${place.code}`}>
      <div className="flex flex-wrap gap-4 text-sm">
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={buy} onChange={(event) => setBuy(event.target.checked)} /> Buying
          open
        </label>
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={sell} onChange={(event) => setSell(event.target.checked)} /> Selling
          open
        </label>
      </div>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <TextField
          label="New customer daily cap (USD, empty: global)"
          inputMode="decimal"
          value={cap}
          onChange={(event) => setCap(event.target.value)}
        />
        <TextField
          label="Largest order (USD, empty: global)"
          inputMode="decimal"
          value={max}
          onChange={(event) => setMax(event.target.value)}
        />
        <TextField
          label="Licence line"
          value={licence}
          onChange={(event) => setLicence(event.target.value)}
        />
        <TextField
          label="Disclosures"
          value={disclosures}
          onChange={(event) => setDisclosures(event.target.value)}
        />
      </div>
      <div className="flex justify-end gap-2">
        <Button variant="ghost" onClick={onDone}>
          Close
        </Button>
        <Button onClick={submit} loading={save.isPending}>
          Request change
        </Button>
      </div>
    </div>
  );
}

/**
 * The places' rules (docs/design.md, "Places and the scam shield"): which states are open for buying
 * and selling, their limits, licence lines and disclosures. Every change needs a second admin.
 */
export default function PlacesPage() {
  const places = useAdminJurisdictions();
  const [editing, setEditing] = useState<string | null>(null);
  return (
    <div className="space-y-5">
      <title>Places — OffZero back office</title>
      <AdminPageHeader
        title="Places"
        description="Where customers may buy and sell. A change waits for a second admin, then applies to every new quote and order as a new rules version."
      />
      {places.isPending ? (
        <PageSkeleton blocks={2} />
      ) : places.isError ? (
        <PageLoadError message={errorMessage(places.error)} onRetry={() => void places.refetch()} />
      ) : (
        <>
          {places.data.pending.length > 0 && (
            <Panel title="Waiting for a second admin" testId="places-pending">
              <ul className="space-y-1 text-sm">
                {places.data.pending.map((request) => (
                  <li key={request.id}>
                    {request.code}: requested by {request.requestedBy}. Open the place and request the same
                    change to carry it out.
                  </li>
                ))}
              </ul>
            </Panel>
          )}
          <Panel title={`Rules version ${places.data.version}`} padded={false} testId="places-table">
            <ul>
              {places.data.jurisdictions.map((place) => (
                <li key={place.code} className="border-b border-slate-100 last:border-0">
                  <div className="flex flex-wrap items-center justify-between gap-2 px-4 py-2 text-sm">
                    <span className="font-medium text-ink-900">
                      {place.code} · {place.name}
                    </span>
                    <span className={place.buy && place.sell ? 'text-emerald-700' : 'text-red-700'}>
                      {place.buy ? 'Buy open' : 'Buy closed'} · {place.sell ? 'Sell open' : 'Sell closed'}
                    </span>
                    <Button
                      variant="outline"
                      size="sm"
                      onClick={() => setEditing(editing === place.code ? null : place.code)}
                    >
                      Edit
                    </Button>
                  </div>
                  {editing === place.code && <PlaceEditor place={place} onDone={() => setEditing(null)} />}
                </li>
              ))}
            </ul>
          </Panel>
        </>
      )}
    </div>
  );
}
