import { apiGetFile } from '../../../lib/api-client';
import { enc } from './admin-query';

/** The unsigned PSBT as a .psbt file. */
export const downloadBatchPsbt = (batchId: string) =>
  apiGetFile(`/admin/payouts/batches/${enc(batchId)}/psbt`);
