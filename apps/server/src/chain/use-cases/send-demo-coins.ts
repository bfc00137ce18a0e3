import { bitcoinAddressProblem, type BitcoinNetwork } from '@offzero/shared/bitcoin/address';
import { addressRefusal } from '@offzero/shared/bitcoin/address-field';
import { btcNumberToSats, MoneyParseError } from '@offzero/shared/money/money';
import { AppError } from '../../http/errors';
import type { SimulatedChain } from '../simulated-chain';

/**
 * Puts a one-output transaction paying `amount` BTC to `address` in the demo chain's mempool, as a
 * customer's wallet would. The address must be of the server's network; the amount whole satoshis;
 * `from`, when given, is the address the transaction spends from (a valid address of the network).
 */
export async function sendDemoCoins(
  chain: SimulatedChain,
  network: BitcoinNetwork,
  payment: { address: string; amount: number; from?: string | undefined },
): Promise<{ txid: string }> {
  const { address, amount, from } = payment;
  const fromProblem = from === undefined ? null : bitcoinAddressProblem(from, network);
  if (fromProblem !== null) {
    throw new AppError('BAD_REQUEST', addressRefusal('The sending address is refused', fromProblem), {
      from: fromProblem,
    });
  }
  const addressProblem = bitcoinAddressProblem(address, network);
  if (addressProblem !== null) {
    throw new AppError('BAD_REQUEST', addressProblem, { address: addressProblem });
  }
  let valueSats: bigint;
  try {
    valueSats = btcNumberToSats(amount);
  } catch (error) {
    if (!(error instanceof MoneyParseError)) throw error;
    throw new AppError('BAD_REQUEST', error.message, { amount: error.message });
  }
  if (valueSats <= 0n) {
    throw new AppError('BAD_REQUEST', 'Send more than 0 BTC.', { amount: 'must be more than 0' });
  }
  return chain.send(address, valueSats, from);
}
