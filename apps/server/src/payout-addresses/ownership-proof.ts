import { Verifier } from 'bip322-js';
import { ownershipProofMessage } from '@offzero/shared/api/payout-addresses';
import { AppError } from '../http/errors';

/**
 * Checks a BIP-322 signature (simple or full, base64; legacy P2PKH addresses also take the older
 * "signmessage" form wallets produce) of `OffZero address ownership: <userId> <address>` by the key of
 * `address`. A signature of another message, by another address or malformed answers 400.
 */
export function verifyOwnershipProof(proof: { userId: string; address: string; signature: string }): void {
  const message = ownershipProofMessage(proof.userId, proof.address);
  let valid: boolean;
  try {
    valid = Verifier.verifySignature(proof.address, message, proof.signature);
  } catch {
    // The library throws on signatures it cannot decode: to the customer that is a wrong signature.
    valid = false;
  }
  if (!valid) {
    throw new AppError(
      'BAD_REQUEST',
      `This signature does not prove ownership. In your wallet, sign exactly "${message}" with the address ${proof.address} (BIP-322), and paste the signature.`,
      { signature: 'This signature does not match the message and address.' },
    );
  }
}
