import { formatPhoneNumberIntl } from 'react-phone-number-input/max';

/** A phone number as people write it (+44 20 7183 8750), by libphonenumber's rules for every country. */
export function writePhoneNumber(phone: string): string {
  return formatPhoneNumberIntl(phone) || phone;
}
