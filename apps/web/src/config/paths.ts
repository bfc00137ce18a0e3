// Every route of the web app, in one place, so links and redirects never drift apart.
export const paths = {
  home: '/',
  login: '/login',
  register: '/register',
  dashboard: '/dashboard',
  orders: '/orders',
  settings: '/settings',
  taxCenter: '/tax',
  /** The page the e-mailed confirmation link of a new payout address opens. */
  confirmPayoutAddress: '/settings/payout-addresses/confirm',
  referralHistory: '/referral-history',
  about: '/about-us',
  termsOfUse: '/terms-of-use',
  privacyPolicy: '/privacy-policy',
  cookiePolicy: '/cookie-policy',
  refundPolicy: '/refund-policy',
  devOutbox: '/dev/outbox',
  admin: '/admin',
} as const;

export type AppPath = (typeof paths)[keyof typeof paths];
