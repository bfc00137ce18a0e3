import { formatPhoneNumberIntl } from 'react-phone-number-input/max';

/** A phone number as people write it (+1 202 555 0142); loaded with the phone steps' rules. */
export default function PhoneNumberText({ phone }: { phone: string }) {
  return <>{formatPhoneNumberIntl(phone) || phone}</>;
}
