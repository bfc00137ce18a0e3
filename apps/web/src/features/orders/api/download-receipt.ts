import { apiGetFile } from '../../../lib/api-client';
import { saveBlob } from '../../../lib/save-blob';

/** Downloads the order's PDF receipt (GET /api/order/:id/receipt) and saves the file. */
export async function downloadReceipt(orderId: string): Promise<void> {
  const { blob, filename } = await apiGetFile(`/order/${encodeURIComponent(orderId)}/receipt`);
  saveBlob(blob, filename ?? `offzero-receipt-${orderId.slice(0, 8)}.pdf`);
}
