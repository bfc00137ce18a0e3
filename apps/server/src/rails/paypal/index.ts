import type { RailHandler } from '../rail-handler';

/**
 * PayPal: a buy paid through PayPal's checkout; the capture and its later refunds or disputes reach
 * the server by PayPal's webhook (docs/design.md, "Money, accounts, compliance and notices").
 * The gateway, service and routes are beside this file; this handler stays free of them.
 */
export const paypalRail: RailHandler = {
  id: 'paypal',
  chargesCents: () => 0n,
  isActive: (settings) => settings.paypalActive,
  detection: { kind: 'provider-webhook', webhookPath: '/api/payments/paypal/webhook' },
};
