import type { ComponentProps } from 'react';

// Small inline icons (no icon font, no network). Decorative by default: the control that holds one
// carries the accessible name.
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

export const MenuIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M4 7h16M4 12h16M4 17h16" />
  </Outline>
);

export const CloseIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M6 6l12 12M18 6 6 18" />
  </Outline>
);

export const ArrowRightIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M5 12h14M13 6l6 6-6 6" />
  </Outline>
);

export const ExternalLinkIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M14 5h5v5M19 5l-8 8M17 14v4a1 1 0 0 1-1 1H6a1 1 0 0 1-1-1V8a1 1 0 0 1 1-1h4" />
  </Outline>
);

export const CheckIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="m5 12.5 4.5 4.5L19 7.5" />
  </Outline>
);

export const BoltIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M13 3 5 13.5h6L10 21l8-10.5h-6L13 3Z" />
  </Outline>
);

export const CardIcon = (props: IconProps) => (
  <Outline {...props}>
    <rect x="3" y="5.5" width="18" height="13" rx="2" />
    <path d="M3 10h18M7 15h3" />
  </Outline>
);

export const ShieldIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M12 3 5 6v5.5c0 4.3 3 8 7 9.5 4-1.5 7-5.2 7-9.5V6l-7-3Z" />
    <path d="m9 12 2.2 2.2L15.5 10" />
  </Outline>
);

export const WalletIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M4 7.5A2.5 2.5 0 0 1 6.5 5H18v3" />
    <path d="M4 7.5v10A1.5 1.5 0 0 0 5.5 19H20v-11H6.5A2.5 2.5 0 0 1 4 7.5Z" />
    <path d="M16.5 13.5h.01" />
  </Outline>
);

export const PercentIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M19 5 5 19" />
    <circle cx="7" cy="7" r="2.5" />
    <circle cx="17" cy="17" r="2.5" />
  </Outline>
);

export const SupportIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M4 13v-1a8 8 0 0 1 16 0v1" />
    <rect x="3" y="13" width="4" height="6" rx="1.5" />
    <rect x="17" y="13" width="4" height="6" rx="1.5" />
    <path d="M19 19c0 1.1-1.8 2-4 2h-2" />
  </Outline>
);

export const MailIcon = (props: IconProps) => (
  <Outline {...props}>
    <rect x="3" y="5" width="18" height="14" rx="2" />
    <path d="m4 7 8 6 8-6" />
  </Outline>
);

export const MapPinIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M12 21s-7-6.2-7-11.5a7 7 0 0 1 14 0C19 14.8 12 21 12 21Z" />
    <circle cx="12" cy="9.5" r="2.5" />
  </Outline>
);

export const UserIcon = (props: IconProps) => (
  <Outline {...props}>
    <circle cx="12" cy="8" r="4" />
    <path d="M4 20.5c1.3-3.8 4.4-5.5 8-5.5s6.7 1.7 8 5.5" />
  </Outline>
);

export const IdCardIcon = (props: IconProps) => (
  <Outline {...props}>
    <rect x="3" y="5" width="18" height="14" rx="2" />
    <circle cx="9" cy="11" r="2" />
    <path d="M6 16c.6-1.4 1.7-2 3-2s2.4.6 3 2M14.5 10h3.5M14.5 13.5h3.5" />
  </Outline>
);

export const BitcoinIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M8 6h5.5a3 3 0 0 1 0 6H8V6ZM8 12h6.5a3 3 0 0 1 0 6H8v-12ZM6 6h2M6 18h2M10 4v2M13 4v2M10 18v2M13 18v2" />
  </Outline>
);

export const LockIcon = (props: IconProps) => (
  <Outline {...props}>
    <rect x="5" y="10.5" width="14" height="10" rx="2" />
    <path d="M8 10.5V8a4 4 0 0 1 8 0v2.5" />
  </Outline>
);

export const EyeIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M2.5 12S6 5.5 12 5.5 21.5 12 21.5 12 18 18.5 12 18.5 2.5 12 2.5 12Z" />
    <circle cx="12" cy="12" r="3" />
  </Outline>
);

export const SparkIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M12 3v4M12 17v4M3 12h4M17 12h4M6 6l2.5 2.5M15.5 15.5 18 18M6 18l2.5-2.5M15.5 8.5 18 6" />
  </Outline>
);

// Brand marks of the social networks, filled.
export const XLogoIcon = ({ className = 'size-5', ...props }: IconProps) => (
  <svg
    viewBox="0 0 24 24"
    fill="currentColor"
    aria-hidden="true"
    focusable="false"
    className={className}
    {...props}
  >
    <path d="M17.75 3h3.07l-6.7 7.66L22 21h-6.17l-4.83-6.32L5.47 21H2.4l7.17-8.2L2 3h6.33l4.37 5.77L17.75 3Zm-1.08 16.2h1.7L7.4 4.72H5.57l11.1 14.48Z" />
  </svg>
);

export const FacebookIcon = ({ className = 'size-5', ...props }: IconProps) => (
  <svg
    viewBox="0 0 24 24"
    fill="currentColor"
    aria-hidden="true"
    focusable="false"
    className={className}
    {...props}
  >
    <path d="M13.5 21v-7.5H16l.4-3h-2.9V8.6c0-.9.3-1.5 1.5-1.5h1.5V4.4c-.3 0-1.2-.1-2.2-.1-2.2 0-3.8 1.3-3.8 3.8v2.4H8v3h2.5V21h3Z" />
  </svg>
);

export const LinkedInIcon = ({ className = 'size-5', ...props }: IconProps) => (
  <svg
    viewBox="0 0 24 24"
    fill="currentColor"
    aria-hidden="true"
    focusable="false"
    className={className}
    {...props}
  >
    <path d="M6.94 8.75H3.56V20h3.38V8.75ZM5.25 3.5a1.96 1.96 0 1 0 0 3.92 1.96 1.96 0 0 0 0-3.92ZM20.44 13.6c0-3.03-.65-5.1-4.17-5.1-1.7 0-2.83.93-3.3 1.8h-.05V8.75H9.69V20h3.38v-5.57c0-1.47.28-2.9 2.1-2.9 1.8 0 1.82 1.68 1.82 3V20h3.45v-6.4Z" />
  </svg>
);

export const HomeIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M4 10.5 12 4l8 6.5V19a1 1 0 0 1-1 1h-4.5v-5.5h-5V20H5a1 1 0 0 1-1-1v-8.5Z" />
  </Outline>
);

export const ListIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M9 6.5h11M9 12h11M9 17.5h11" />
    <path d="M4.5 6.5h.01M4.5 12h.01M4.5 17.5h.01" strokeWidth={2.6} />
  </Outline>
);

export const SettingsIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M10.3 3.6a1.8 1.8 0 0 1 3.4 0l.3.9a1.8 1.8 0 0 0 2.5 1l.8-.4a1.8 1.8 0 0 1 2.4 2.4l-.4.8a1.8 1.8 0 0 0 1 2.5l.9.3a1.8 1.8 0 0 1 0 3.4l-.9.3a1.8 1.8 0 0 0-1 2.5l.4.8a1.8 1.8 0 0 1-2.4 2.4l-.8-.4a1.8 1.8 0 0 0-2.5 1l-.3.9a1.8 1.8 0 0 1-3.4 0l-.3-.9a1.8 1.8 0 0 0-2.5-1l-.8.4a1.8 1.8 0 0 1-2.4-2.4l.4-.8a1.8 1.8 0 0 0-1-2.5l-.9-.3a1.8 1.8 0 0 1 0-3.4l.9-.3a1.8 1.8 0 0 0 1-2.5l-.4-.8a1.8 1.8 0 0 1 2.4-2.4l.8.4a1.8 1.8 0 0 0 2.5-1l.3-.9Z" />
    <circle cx="12" cy="12" r="3" />
  </Outline>
);

export const LogoutIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M14 4h4a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2h-4M10 16l-4-4 4-4M6 12h10" />
  </Outline>
);

export const ChevronDownIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="m6 9 6 6 6-6" />
  </Outline>
);

export const ArrowLeftIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M19 12H5M11 6l-6 6 6 6" />
  </Outline>
);

export const PencilIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M4 20h4L19 9a2.8 2.8 0 0 0-4-4L4 16v4Z" />
    <path d="m13.5 6.5 4 4" />
  </Outline>
);

export const CopyIcon = (props: IconProps) => (
  <Outline {...props}>
    <rect x="9" y="9" width="11" height="11" rx="2" />
    <path d="M5 15H4.5A1.5 1.5 0 0 1 3 13.5v-9A1.5 1.5 0 0 1 4.5 3h9A1.5 1.5 0 0 1 15 4.5V5" />
  </Outline>
);

export const RefreshIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M20 11a8 8 0 0 0-14.6-4.5M4 4v4h4M4 13a8 8 0 0 0 14.6 4.5M20 20v-4h-4" />
  </Outline>
);

export const PhoneIcon = (props: IconProps) => (
  <Outline {...props}>
    <rect x="6.5" y="2.5" width="11" height="19" rx="2.5" />
    <path d="M10.5 18.5h3" />
  </Outline>
);

export const HelpIcon = (props: IconProps) => (
  <Outline {...props}>
    <circle cx="12" cy="12" r="9" />
    <path d="M9.5 9.5a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.6v.6M12 17h.01" />
  </Outline>
);

export const InboxIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M4 13.5 6.5 5h11l2.5 8.5V19a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1v-5.5Z" />
    <path d="M4 13.5h4.5l1 2h5l1-2H20" />
  </Outline>
);

export const AlertIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M12 4 2.8 19.5h18.4L12 4Z" />
    <path d="M12 10v4.5M12 17.2h.01" />
  </Outline>
);

export const ClockIcon = (props: IconProps) => (
  <Outline {...props}>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 7v5l3 2" />
  </Outline>
);

/** Bitcoin coming in (a buy). */
export const ArrowDownLeftIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M17 7 7 17M7 9v8h8" />
  </Outline>
);

/** Bitcoin going out (a sell). */
export const ArrowUpRightIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M7 17 17 7M9 7h8v8" />
  </Outline>
);

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

/** A page with a folded corner and lines of figures: a tax form. */
export const TaxFormIcon = (props: IconProps) => (
  <Outline {...props}>
    <path d="M7 3.5h7l5 5V19a1.5 1.5 0 0 1-1.5 1.5h-10.5A1.5 1.5 0 0 1 5.5 19V5A1.5 1.5 0 0 1 7 3.5Z" />
    <path d="M14 3.5V8.5h5M8.5 12.5h7M8.5 16h4.5" />
  </Outline>
);
