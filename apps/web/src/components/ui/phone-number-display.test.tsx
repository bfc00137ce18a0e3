import { render, renderHook, screen, waitFor } from '@testing-library/react';
import { formatPhoneNumberIntl, isValidPhoneNumber } from 'react-phone-number-input/max';
import { describe, expect, it } from 'vitest';
import { formatNorthAmericanNumber, PhoneNumberDisplay, usePhoneNumberText } from './phone-number-display';

// Area codes across the plan: the US, Canada, the Caribbean, toll-free and a territory.
const AREA_CODES = ['202', '212', '415', '907', '808', '416', '604', '876', '242', '800', '671', '787'];

function northAmericanNumbers(): string[] {
  const numbers: string[] = [];
  for (const area of AREA_CODES) {
    for (const exchange of ['200', '555', '734', '989']) {
      for (const line of ['0000', '0142', '4321', '9999']) numbers.push(`+1${area}${exchange}${line}`);
    }
  }
  return numbers;
}

describe('a phone number as people write it', () => {
  it('writes every valid North American number exactly as libphonenumber does', () => {
    const valid = northAmericanNumbers().filter((phone) => isValidPhoneNumber(phone));
    expect(valid.length).toBeGreaterThan(100);
    for (const phone of valid)
      expect(formatNorthAmericanNumber(phone), phone).toBe(formatPhoneNumberIntl(phone));
  });

  it('leaves every other number to libphonenumber', () => {
    for (const phone of [
      '+442071838750',
      '+4915112345678',
      '+12025550',
      '+120255501420',
      '12025550142',
      '',
    ]) {
      expect(formatNorthAmericanNumber(phone), phone).toBeNull();
    }
  });

  it('shows a North American number at once, and loads the rules for another', async () => {
    const { rerender } = render(<PhoneNumberDisplay phone="+12025550142" />);
    expect(screen.getByText('+1 202 555 0142')).toBeInTheDocument();
    rerender(<PhoneNumberDisplay phone="+442071838750" />);
    expect(await screen.findByText('+44 20 7183 8750')).toBeInTheDocument();
  });

  it('gives the same text where a field needs text, and nothing for no number', async () => {
    const { result, rerender } = renderHook(
      ({ phone }: { phone: string | null }) => usePhoneNumberText(phone),
      {
        initialProps: { phone: null as string | null },
      },
    );
    expect(result.current).toBeNull();
    rerender({ phone: '+12025550142' });
    expect(result.current).toBe('+1 202 555 0142');
    // Another country's number shows as stored until the rules arrive, then as people write it.
    rerender({ phone: '+4915112345678' });
    expect(result.current).toBe('+4915112345678');
    await waitFor(() => expect(result.current).toBe(formatPhoneNumberIntl('+4915112345678')));
    expect(result.current).not.toBe('+4915112345678');
  });
});
