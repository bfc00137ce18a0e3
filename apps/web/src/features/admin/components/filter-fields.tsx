import { useId, type ComponentProps, type ReactNode } from 'react';
import { ChevronDownIcon } from '../../../components/ui/icons';

// Compact inputs for the filter bars above tables (the forms' fields are taller, for customers).

const base =
  'block h-10 w-full min-w-0 rounded-lg border border-slate-300 bg-white text-base text-ink-900 shadow-xs outline-none transition-colors placeholder:text-slate-500 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 sm:text-sm';

export function FilterInput({
  label,
  icon,
  className,
  ...props
}: Omit<ComponentProps<'input'>, 'id'> & { label: string; icon?: ReactNode }) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-xs font-medium text-slate-600">
        {label}
      </label>
      <div className="relative">
        {icon && (
          <span className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-slate-500">
            {icon}
          </span>
        )}
        <input id={id} className={`${base} ${icon ? 'pl-9' : 'pl-3'} pr-3`} {...props} />
      </div>
    </div>
  );
}

export function FilterSelect({
  label,
  className,
  children,
  ...props
}: Omit<ComponentProps<'select'>, 'id'> & { label: string }) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-xs font-medium text-slate-600">
        {label}
      </label>
      <div className="relative">
        <select id={id} className={`${base} appearance-none pr-9 pl-3`} {...props}>
          {children}
        </select>
        <ChevronDownIcon className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-slate-500" />
      </div>
    </div>
  );
}

export function FilterCheckbox({
  label,
  ...props
}: Omit<ComponentProps<'input'>, 'id' | 'type'> & { label: string }) {
  const id = useId();
  return (
    <div className="flex h-10 items-center gap-2 self-end">
      <input
        id={id}
        type="checkbox"
        className="size-4 rounded border-slate-300 accent-brand-500"
        {...props}
      />
      <label htmlFor={id} className="text-sm font-medium whitespace-nowrap text-slate-700">
        {label}
      </label>
    </div>
  );
}
