import { toast } from '../../../lib/toast';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { firstError, useZodForm } from '../../../lib/forms';
import { Button } from '../../../components/ui/button';
import { PageLoadError } from '../../../components/ui/page';
import { useAuditLog, type AuditFilters } from '../api/get-audit-log';
import { auditFilterFormSchema, auditTargetTypes, type AuditTargetType } from '@offzero/shared/api/admin';
import { AdminPageHeader, EmptyState, TableSkeleton } from '../components/blocks';
import { DataTable } from '../components/data-table';
import { FilterInput, FilterSelect } from '../components/filter-fields';
import { ACTIONS, AUDIT_COLUMNS } from './audit-columns';

const LIMITS = [50, 100, 250, 500];

/** The filters as the URL holds them, so a filtered log can be linked to and survives Back. */
function filtersFromParams(params: URLSearchParams): AuditFilters {
  const targetType = params.get('targetType') ?? '';
  return {
    action: params.get('action') ?? undefined,
    targetType: (auditTargetTypes as readonly string[]).includes(targetType)
      ? (targetType as AuditTargetType)
      : '',
    targetId: params.get('targetId') ?? undefined,
    admin: params.get('admin') ?? undefined,
    limit: LIMITS.includes(Number(params.get('limit'))) ? Number(params.get('limit')) : 100,
  };
}

/** Every staff action with its before and after, newest first. */
export default function AuditPage() {
  const [params, setParams] = useSearchParams();
  const filters = filtersFromParams(params);
  const audit = useAuditLog(filters);
  const form = useZodForm(auditFilterFormSchema, {
    defaultValues: { targetId: filters.targetId ?? '', admin: filters.admin ?? '' },
  });

  const update = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    setParams(next, { replace: true });
  };

  // The schema trims what was typed; a blank field drops its filter.
  const onSubmit = form.handleSubmit(
    ({ targetId, admin }) => update({ targetId: targetId || undefined, admin: admin || undefined }),
    (errors) => {
      const message = firstError(errors, ['targetId', 'admin']);
      if (message) toast.error(message);
    },
  );

  const anyFilter = ['action', 'targetType', 'targetId', 'admin'].some((key) => params.has(key));

  return (
    <div className="space-y-5">
      <title>Audit log — OffZero back office</title>
      <AdminPageHeader
        title="Audit log"
        description="Who changed what, and when. Entries cannot be edited or removed."
      />
      <section aria-label="Filters" className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200/80">
        <form
          onSubmit={(event) => void onSubmit(event)}
          className="grid grid-cols-2 gap-3 lg:grid-cols-[repeat(5,minmax(0,1fr))_auto]"
        >
          <FilterSelect
            label="Action"
            value={filters.action ?? ''}
            onChange={(event) => update({ action: event.target.value || undefined })}
          >
            <option value="">All actions</option>
            {ACTIONS.map((action) => (
              <option key={action.value} value={action.value}>
                {action.label}
              </option>
            ))}
          </FilterSelect>
          <FilterSelect
            label="Target"
            value={filters.targetType ?? ''}
            onChange={(event) => update({ targetType: event.target.value || undefined })}
          >
            <option value="">All targets</option>
            {auditTargetTypes.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </FilterSelect>
          <FilterInput
            label="Target id"
            {...form.register('targetId')}
            placeholder="Order or customer id"
            className="col-span-2 lg:col-span-1"
          />
          <FilterInput label="Admin" {...form.register('admin')} placeholder="E-mail" />
          <FilterSelect
            label="Show"
            value={String(filters.limit)}
            onChange={(event) => update({ limit: event.target.value })}
          >
            {LIMITS.map((limit) => (
              <option key={limit} value={limit}>
                {limit} newest
              </option>
            ))}
          </FilterSelect>
          <div className="col-span-2 flex items-end gap-2 lg:col-span-1">
            <Button type="submit" variant="secondary" size="sm" className="h-10 flex-1 lg:flex-none">
              Apply
            </Button>
            {anyFilter && (
              <Button
                variant="ghost"
                size="sm"
                className="h-10"
                onClick={() => {
                  form.reset({ targetId: '', admin: '' });
                  setParams(new URLSearchParams(), { replace: true });
                }}
              >
                Reset
              </Button>
            )}
          </div>
        </form>
      </section>
      <AuditResults audit={audit} />
    </div>
  );
}

/** The entries that match, dimmed while a new selection loads. */
function AuditResults({ audit }: { audit: ReturnType<typeof useAuditLog> }) {
  return audit.isError ? (
    <PageLoadError message={errorMessage(audit.error)} onRetry={() => void audit.refetch()} />
  ) : (
    <div
      className={`overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200/80 ${audit.isPlaceholderData ? 'opacity-60' : ''}`}
    >
      {audit.isPending ? (
        <TableSkeleton label="Loading the audit log" />
      ) : audit.data.entries.length === 0 ? (
        <EmptyState title="No entries match these filters." />
      ) : (
        <DataTable
          columns={AUDIT_COLUMNS}
          rows={audit.data.entries}
          rowKey={(e) => e._id}
          label="Audit log"
          rowTestId="audit-row"
        />
      )}
    </div>
  );
}
