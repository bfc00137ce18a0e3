import { ownershipProofMessage } from '@offzero/shared/api/payout-addresses';
import { AppError } from '../http/errors';
import { verifyBip322 } from './bip322';

/**
 * Checks a BIP-322 signature of `OffZero address ownership: <userId> <address>` by the key of
 * `address`: simple ("smp…") or full ("ful…") as the BIP writes them now, the same without the prefix
 * as wallets wrote them before, or the older "signmessage" form for legacy P2PKH addresses. A
 * signature of another message, by another address, malformed, or of a script this server cannot
 * check answers 400 saying which.
 */
export function verifyOwnershipProof(proof: { userId: string; address: string; signature: string }): void {
  const message = ownershipProofMessage(proof.userId, proof.address);
  const verdict = verifyBip322(proof.address, message, proof.signature.trim());
  if (verdict.result === 'valid') return;
  if (verdict.result === 'inconclusive') {
    throw new AppError(
      'BAD_REQUEST',
      `This signature cannot be checked here: ${verdict.reason}. Sign "${message}" with a single-key or multisig address, in BIP-322's simple or full form.`,
      { signature: `This signature cannot be checked here: ${verdict.reason}.` },
    );
  }
  throw new AppError(
    'BAD_REQUEST',
    `This signature does not prove ownership (${verdict.reason}). In your wallet, sign exactly "${message}" with the address ${proof.address} (BIP-322), and paste the signature.`,
    { signature: 'This signature does not match the message and address.' },
  );
}
