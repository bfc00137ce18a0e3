import type { PayoutSender } from './rail-handler';

/**
 * Staff pay by hand (a sell's dollars by Zelle, ACH or wire; a buy's bitcoin from their own wallet) and
 * record the bank reference or txid (docs/design.md, "Payouts claim the order first"). Nothing leaves
 * through the server: handing a payout to this sender only puts it before staff, and their record
 * (`payout-usd`, `record-btc-payout`) settles it.
 */
export const operatorPayoutSender: PayoutSender = {
  mode: 'manual',
  send: async (_deps, payout) => ({ outcome: 'submitted', reference: `operator:${payout.id}` }),
};
