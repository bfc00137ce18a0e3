import type { ComponentProps } from 'react';

// The few icons the console needs beyond components/ui/icons, drawn the same way.
type IconProps = ComponentProps<'svg'>;

function Outline({ children, className = 'size-5', ...props }: IconProps) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className={className}
      {...props}
    >
      {children}
    </svg>
  );
}

export const SearchIcon = (props: IconProps) => (
  <Outline {...props}>
    <circle cx="11" cy="11" r="6.5" />
    <path d="m20 20-4.2-4.2" />
  </Outline>
);

export const DownloadIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M12 4v11M7 10.5l5 5 5-5M5 19.5h14" />
  </Outline>
);

export const ScrollIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M7 4h10a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2Z" />
    <path d="M9 8.5h6M9 12h6M9 15.5h3.5" />
  </Outline>
);

export const UsersIcon = (props: IconProps) => (
  <Outline {...props}>
    <circle cx="9" cy="8.5" r="3.5" />
    <path d="M2.5 19.5c1-3.2 3.5-4.7 6.5-4.7s5.5 1.5 6.5 4.7" />
    <path d="M15.5 5.2a3.5 3.5 0 0 1 0 6.6M17.5 14.9c2 .6 3.4 2.1 4 4.6" />
  </Outline>
);
