import type { ComponentProps } from 'react';

/** Centres page content with the site's maximum width and side gutters. */
export function Container({ className, ...props }: ComponentProps<'div'>) {
  return <div className={`mx-auto w-full max-w-6xl px-4 sm:px-6 lg:px-8 ${className ?? ''}`} {...props} />;
}
