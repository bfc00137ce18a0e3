import type { SimulatedChain } from '../../chain/simulated-chain';
import type { PayoutSender } from '../rail-handler';

/**
 * Demo only: the simulated chain pays a buy's bitcoin by itself. It throws when the send's outcome is
 * unknown (the coins may have left), so the caller keeps the intent and nothing is sent again; it never
 * answers `failed` unless it knows nothing moved.
 */
export function createDemoChainPayoutSender(chain: Pick<SimulatedChain, 'send'>): PayoutSender {
  return {
    mode: 'automatic',
    send: async (_deps, payout) => {
      if (!payout.address || payout.amountSats === null) {
        return { outcome: 'failed', reason: 'the payout names no address or amount' };
      }
      const sent = await chain.send(payout.address, payout.amountSats);
      return { outcome: 'settled', reference: sent.txid, txid: sent.txid, vout: 0 };
    },
  };
}
