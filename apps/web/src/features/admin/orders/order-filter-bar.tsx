import type { FormEvent } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { orderStatusSchema, paymentMethodSchema } from '@offzero/shared/api/orders';
import { Button } from '../../../components/ui/button';
import { SearchIcon } from '../../../components/ui/icons';
import type { OrderFilters } from '../api/search-orders';
import { FilterCheckbox, FilterInput, FilterSelect } from '../components/filter-fields';
import { methodLabel } from '../format';

/** The customer search and the filters; each change of a filter goes to the URL at once. */
export function OrderFilterBar({
  filters,
  searchField,
  onSearch,
  update,
}: {
  filters: OrderFilters;
  searchField: UseFormRegisterReturn<'customer'>;
  onSearch: (event: FormEvent<HTMLFormElement>) => void;
  update: (changes: Record<string, string | undefined>) => void;
}) {
  return (
    <section aria-label="Filters" className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200/80">
      <form role="search" onSubmit={onSearch} className="flex gap-2">
        <FilterInput
          label="Customer or order"
          type="search"
          {...searchField}
          placeholder="E-mail, phone, or a customer or order number (#25a55680)"
          icon={<SearchIcon className="size-4" />}
          className="flex-1"
        />
        <Button type="submit" variant="secondary" size="sm" className="h-10 self-end">
          Search
        </Button>
      </form>
      <div className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-[repeat(5,minmax(0,1fr))_auto]">
        <FilterSelect
          label="Status"
          value={filters.status ?? ''}
          onChange={(event) => update({ status: event.target.value || undefined })}
        >
          <option value="">All statuses</option>
          {orderStatusSchema.options.map((status) => (
            <option key={status} value={status}>
              {status}
            </option>
          ))}
        </FilterSelect>
        <FilterSelect
          label="Type"
          value={filters.type ?? ''}
          onChange={(event) => update({ type: event.target.value || undefined })}
        >
          <option value="">Buy and sell</option>
          <option value="buy">Buy</option>
          <option value="sell">Sell</option>
        </FilterSelect>
        <FilterSelect
          label="Method"
          value={filters.method ?? ''}
          onChange={(event) => update({ method: event.target.value || undefined })}
        >
          <option value="">All methods</option>
          {paymentMethodSchema.options.map((method) => (
            <option key={method} value={method}>
              {methodLabel(method)}
            </option>
          ))}
        </FilterSelect>
        <FilterInput
          label="From"
          type="date"
          value={filters.from ?? ''}
          max={filters.to}
          onChange={(event) => update({ from: event.target.value || undefined })}
        />
        <FilterInput
          label="To"
          type="date"
          value={filters.to ?? ''}
          min={filters.from}
          onChange={(event) => update({ to: event.target.value || undefined })}
        />
        <FilterCheckbox
          label="Flagged only"
          checked={filters.flagged ?? false}
          onChange={(event) => update({ flagged: event.target.checked ? 'true' : undefined })}
        />
      </div>
    </section>
  );
}
