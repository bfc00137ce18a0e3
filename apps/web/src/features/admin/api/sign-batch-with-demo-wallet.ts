import { z } from 'zod';
import { apiPost } from '../../../lib/api-client';
import { enc } from './admin-query';

/** Demo only: the demo payout wallet signs the batch (standing in for the operator's own wallet). */
export const signBatchWithDemoWallet = (batchId: string) =>
  apiPost(`/dev/payouts/batches/${enc(batchId)}/sign`, {}, { schema: z.object({ psbt: z.string() }) });
