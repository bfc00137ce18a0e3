import { lazy, Suspense } from 'react';

const PhoneNumberText = lazy(() => import('./phone-number-text'));

/**
 * A phone number as people write it (+1 202 555 0142). A North American number (+1, most customers')
 * is written here as libphonenumber writes it; any other loads libphonenumber's metadata (about 50 kB
 * gzip, most of the dashboard's script when it was loaded for every verified number).
 */
export function PhoneNumberDisplay({ phone }: { phone: string }) {
  const northAmerican = formatNorthAmericanNumber(phone);
  if (northAmerican) return <>{northAmerican}</>;
  return (
    <Suspense fallback={phone}>
      <PhoneNumberText phone={phone} />
    </Suspense>
  );
}

/**
 * `+12025550142` as `+1 202 555 0142`: every region of the North American plan shares that format
 * (phone-number-display.test.tsx checks it against libphonenumber). Null for any other number.
 */
export function formatNorthAmericanNumber(phone: string): string | null {
  const digits = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(phone);
  return digits ? `+1 ${digits[1]} ${digits[2]} ${digits[3]}` : null;
}
