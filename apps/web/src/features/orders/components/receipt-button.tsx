import { useState } from 'react';
import { toast } from '../../../lib/toast';
import { errorMessage } from '../../../lib/api-client';
import { Button } from '../../../components/ui/button';
import { downloadReceipt } from '../api/download-receipt';

/** The order drawer's "Download receipt": the order's PDF receipt, with every figure and its timeline. */
export function ReceiptButton({ orderId }: { orderId: string }) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant="outline"
      size="sm"
      loading={busy}
      onClick={() => {
        setBusy(true);
        downloadReceipt(orderId)
          .then(() => toast.success('Receipt downloaded.'))
          .catch((error: unknown) => toast.error(errorMessage(error, 'Could not download the receipt.')))
          .finally(() => setBusy(false));
      }}
    >
      Download receipt
    </Button>
  );
}
