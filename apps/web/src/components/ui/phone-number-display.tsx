import { useEffect, useState } from 'react';

/**
 * A phone number as people write it (+1 202 555 0142). A North American number (+1, most customers')
 * is written here as libphonenumber writes it; any other loads libphonenumber's metadata (about 70 kB
 * gzip, which every verified customer's dashboard and settings loaded to show one number) and shows
 * the number as stored until it has.
 */
export function PhoneNumberDisplay({ phone }: { phone: string }) {
  return <>{usePhoneNumberText(phone)}</>;
}

/** The text of PhoneNumberDisplay, for a place that takes text (a read-only field); null for none. */
export function usePhoneNumberText<T extends string | null>(phone: T): T {
  const northAmerican = phone && formatNorthAmericanNumber(phone);
  const [written, setWritten] = useState<{ phone: string; text: string } | null>(null);
  useEffect(() => {
    if (!phone || northAmerican) return;
    let current = true;
    import('./phone-number-text')
      .then(({ writePhoneNumber }) => {
        if (current) setWritten({ phone, text: writePhoneNumber(phone) });
      })
      // Offline or a failed download: the number as stored is still right.
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [phone, northAmerican]);
  if (northAmerican) return northAmerican as T;
  return written && written.phone === phone ? (written.text as T) : phone;
}

/**
 * `+12025550142` as `+1 202 555 0142`: every region of the North American plan shares that format
 * (phone-number-display.test.tsx checks it against libphonenumber). Null for any other number.
 */
export function formatNorthAmericanNumber(phone: string): string | null {
  const digits = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(phone);
  return digits ? `+1 ${digits[1]} ${digits[2]} ${digits[3]}` : null;
}
