import type { SignedInUser } from '../../auth/sessions';
import type { FeeTier } from '../../chain/chain-api';
import { AppError } from '../../http/errors';
import { findBatch } from './payout-batch.repository';
import type { PayoutBatchDeps } from './payout-batch-deps';
import { signWithDemoPayoutWallet } from './demo-payout-wallet';
import { abandonPayoutBatch } from './use-cases/abandon-payout-batch';
import { buildPayoutBatch } from './use-cases/build-payout-batch';
import { bumpPayoutBatchFee } from './use-cases/bump-payout-batch-fee';
import { getPayoutBatch, listDueBuys, listPayoutBatches } from './use-cases/read-payout-batches';
import { submitSignedBatch } from './use-cases/submit-signed-batch';

export type { PayoutBatchDeps } from './payout-batch-deps';

/** Payout batches (docs/design.md): build, read, sign (demo), upload and broadcast, fee-bump, abandon. */
export function createPayoutBatchService(deps: PayoutBatchDeps, options: { demoSigner: boolean }) {
  return {
    walletConfigured: deps.wallet !== null,
    feeCapPercent: deps.feeCapPercent,
    listDueBuys: () => listDueBuys(deps),
    build: (request: { staff: SignedInUser; feeTier: FeeTier }) => buildPayoutBatch(deps, request),
    get: (batchId: string) => getPayoutBatch(deps, batchId),
    list: (limit: number) => listPayoutBatches(deps, limit),
    submitSigned: (request: { staff: SignedInUser; batchId: string; psbt: string }) =>
      submitSignedBatch(deps, request),
    bumpFee: (request: { staff: SignedInUser; batchId: string; feeTier: FeeTier }) =>
      bumpPayoutBatchFee(deps, request),
    abandon: (request: { staff: SignedInUser; batchId: string }) => abandonPayoutBatch(deps, request),
    /** Demo only: the demo wallet signs the batch's PSBT, as the operator's hardware wallet would. */
    signWithDemoWallet: options.demoSigner ? (batchId: string) => signWithDemoWallet(deps, batchId) : null,
  };
}

async function signWithDemoWallet(deps: PayoutBatchDeps, batchId: string): Promise<string> {
  {
    const found = await findBatch(deps.db, batchId);
    if (!found) throw new AppError('NOT_FOUND', 'Payout batch not found.');
    if (found.batch.status !== 'awaiting_signature') {
      throw new AppError(
        'CONFLICT',
        `This batch is ${found.batch.status.replace('_', ' ')}; only a batch waiting for its signature is signed.`,
      );
    }
    return signWithDemoPayoutWallet(found.batch.unsignedPsbt);
  }
}

export type PayoutBatchService = ReturnType<typeof createPayoutBatchService>;
