import type { User } from '@offzero/shared/api/accounts';
import { DEFAULT_ARRIVAL_TIMING } from '@offzero/shared/api/global-settings';

/** What the trade widget's tests answer for the price, the public settings and a verified customer. */
export const price = {
  buyPrice: 96_500,
  sellPrice: 97_123.45,
  networkFee: 0.0000141,
  updatedAt: '2026-11-21T09:00:00.000Z',
  source: 'demo',
  stale: false,
};
export const settings = {
  order: { platform_fees: 1.5, min_order_size: 20, max_order_size: 10_000, order_session_timeout: 900 },
  paypal: { is_active: true },
  zelle: { is_active: true },
  ach: { is_active: true },
  wire: { is_active: false },
  instant: { is_active: false },
  referral: { reward: 10, trades_eligible: 3 },
  arrival: { ...DEFAULT_ARRIVAL_TIMING },
};
/** A customer with e-mail and phone verified (also the settings and KYC tests' customer). */
export const verifiedUser: User = {
  _id: 'user-1',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  phoneNumber: '+12025550123',
  email_verified: true,
  phone_verified: true,
  image: null,
  role: 'customer',
};
