import type { BitcoinNetwork } from '@offzero/shared/bitcoin/address';
import type { Transaction } from '../../db/database';
import { deriveDepositAddress } from './deposit-address';
import { nextDepositIndex } from './deposit.repository';

/**
 * Where a sell order gets its deposit address: the next index of the `deposit_index_seq` sequence,
 * and the address derived at that index from the operator's account key. A sequence never hands out
 * an index twice, so no address is ever reused, however many orders are saved at once.
 */
export async function allocateDepositAddress(
  tx: Transaction,
  key: { depositXpub: string; network: BitcoinNetwork },
): Promise<{ depositIndex: number; walletAddress: string }> {
  const depositIndex = await nextDepositIndex(tx);
  return { depositIndex, walletAddress: deriveDepositAddress(key.depositXpub, depositIndex, key.network) };
}
