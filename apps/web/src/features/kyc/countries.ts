import { getCountries } from 'react-phone-number-input/max';

// The countries a customer can pick on the verification form: the phone library's region list (already
// in the app for the phone field), without the two regions that are not ISO 3166-1 countries, named in
// English by the browser.
const NOT_COUNTRIES = new Set(['AC', 'TA']);

export const DEFAULT_COUNTRY = 'US';

export interface CountryOption {
  code: string;
  name: string;
}

let cached: CountryOption[] | null = null;

export function countryOptions(): CountryOption[] {
  if (cached) return cached;
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  cached = getCountries()
    .filter((code) => !NOT_COUNTRIES.has(code))
    .map((code) => ({ code, name: names.of(code) ?? code }))
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
  return cached;
}
