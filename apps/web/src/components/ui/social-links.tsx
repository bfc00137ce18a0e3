import type { ReactNode } from 'react';
import { useAppConfig } from '../../lib/app-config';
import { FacebookIcon, LinkedInIcon, XLogoIcon } from './icons';

/**
 * OffZero's social accounts as round icon links on a dark ground (the site's footer, the dashboard's
 * side drawer); each opens in a new tab. `className` places and spaces the list.
 */
export function SocialLinks({
  className,
  buttonSize,
}: {
  className: string;
  buttonSize: 'size-9' | 'size-10';
}) {
  const { social } = useAppConfig();
  return (
    <ul className={`flex ${className}`} aria-label="OffZero on social media">
      <SocialLink href={social.x} label="OffZero on X" buttonSize={buttonSize}>
        <XLogoIcon className="size-4" />
      </SocialLink>
      <SocialLink href={social.facebook} label="OffZero on Facebook" buttonSize={buttonSize}>
        <FacebookIcon className="size-4.5" />
      </SocialLink>
      <SocialLink href={social.linkedin} label="OffZero on LinkedIn" buttonSize={buttonSize}>
        <LinkedInIcon className="size-4" />
      </SocialLink>
    </ul>
  );
}

function SocialLink({
  href,
  label,
  buttonSize,
  children,
}: {
  href: string;
  label: string;
  buttonSize: string;
  children: ReactNode;
}) {
  return (
    <li>
      <a
        href={href}
        target="_blank"
        rel="noopener noreferrer"
        aria-label={label}
        className={`inline-flex ${buttonSize} items-center justify-center rounded-full bg-white/5 text-slate-300 ring-1 ring-white/10 transition-colors hover:bg-brand-500 hover:text-ink-900`}
      >
        {children}
      </a>
    </li>
  );
}
