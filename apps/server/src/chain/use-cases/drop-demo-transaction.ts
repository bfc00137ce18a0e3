import { AppError } from '../../http/errors';
import type { SimulatedChain } from '../simulated-chain';

/** Makes a demo transaction vanish, as a fee replacement or a reorganisation would. */
export async function dropDemoTransaction(chain: SimulatedChain, txid: string): Promise<{ message: string }> {
  const dropped = await chain.drop(txid.toLowerCase());
  if (!dropped) {
    throw new AppError('BAD_REQUEST', 'No transaction with this txid is on the demo chain.', {
      txid: 'is not on the demo chain',
    });
  }
  return { message: 'Transaction dropped: it is no longer on the demo chain.' };
}
