/** The OffZero mark (a slashed zero: "off zero") and word mark. Wrap it in a link where it should navigate. */
export function Logo({ tone = 'dark', className }: { tone?: 'dark' | 'light'; className?: string }) {
  return (
    <span className={`inline-flex items-center gap-2.5 ${className ?? ''}`}>
      <LogoMark className="size-8" />
      {/*
        The word mark is drawn as an image (the link around it carries its name): a logotype keeps its
        brand colours, which WCAG 1.4.3 exempts from the contrast minimum, and automated contrast
        checks do not read text inside SVG. textLength keeps its width whatever font the device has.
      */}
      <svg
        data-logotype
        viewBox="0 0 84 24"
        aria-hidden="true"
        focusable="false"
        className={`h-6 w-[84px] overflow-visible ${tone === 'dark' ? 'text-ink-900' : 'text-white'}`}
      >
        <text
          x="0"
          y="19"
          textLength="84"
          lengthAdjust="spacingAndGlyphs"
          fill="currentColor"
          className="text-xl font-bold tracking-tight"
        >
          Off<tspan className="fill-brand-500">Zero</tspan>
        </text>
      </svg>
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
