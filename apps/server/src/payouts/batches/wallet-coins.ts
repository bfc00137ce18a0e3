import type { ChainApi } from '../../chain/chain-api';
import type { PsbtInput } from './payout-psbt';
import type { PayoutWallet } from './payout-wallet';

/** How many unused addresses in a row end the scan of a chain (BIP 44's gap limit). */
const GAP_LIMIT = 20;
/** No wallet of ours has more addresses than this on one chain. */
const MAX_SCAN = 2_000;

export interface WalletCoins {
  /** Confirmed, unspent outputs of the wallet's addresses. */
  coins: PsbtInput[];
  /** The first receive address with no history: where to send bitcoin to fund the wallet. */
  fundingAddress: string;
}

/**
 * Reads the payout wallet's coins from the chain: its receive (m/0/i) and change (m/1/i) addresses,
 * each chain until `GAP_LIMIT` addresses in a row have no history (the change chain at least up to the
 * highest change index a batch used). Only confirmed coins count: a batch never builds on a payment that
 * could still vanish.
 */
export async function readWalletCoins(
  chain: ChainApi,
  wallet: PayoutWallet,
  highestChangeIndex: number,
): Promise<WalletCoins> {
  const coins: PsbtInput[] = [];
  let fundingAddress: string | null = null;
  for (const branch of [0, 1] as const) {
    let unused = 0;
    for (let index = 0; index < MAX_SCAN; index += 1) {
      const { address } = wallet.derive(branch, index);
      const history = await chain.outputsTo(address);
      if (history.length === 0) {
        if (branch === 0 && fundingAddress === null) fundingAddress = address;
        unused += 1;
        if (unused >= GAP_LIMIT && (branch === 0 || index > highestChangeIndex)) break;
        continue;
      }
      unused = 0;
      for (const utxo of await chain.utxos(address)) {
        if (utxo.blockHeight === null) continue;
        coins.push({ txid: utxo.txid, vout: utxo.vout, valueSats: utxo.valueSats, chain: branch, index });
      }
    }
  }
  return { coins, fundingAddress: fundingAddress ?? wallet.derive(0, 0).address };
}
