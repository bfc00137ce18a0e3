/** The OffZero mark (a slashed zero: "off zero") and word mark. Wrap it in a link where it should navigate. */
export function Logo({ tone = 'dark', className }: { tone?: 'dark' | 'light'; className?: string }) {
  return (
    <span className={`inline-flex items-center gap-2.5 ${className ?? ''}`}>
      <LogoMark className="size-8" />
      {/* A logotype keeps its brand colours (WCAG 1.4.3 exempts logos from the contrast minimum). */}
      <span
        data-logotype
        className={`text-xl font-bold tracking-tight ${tone === 'dark' ? 'text-ink-900' : 'text-white'}`}
      >
        Off<span className="text-brand-500">Zero</span>
      </span>
    </span>
  );
}

export function LogoMark({ className }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 64 64" aria-hidden="true">
      <rect width="64" height="64" rx="14" fill="#0b1220" />
      <circle cx="32" cy="32" r="17" fill="none" stroke="#f7931a" strokeWidth="6" />
      <path d="M24 44 40 20" stroke="#fff" strokeWidth="5" strokeLinecap="round" />
    </svg>
  );
}
