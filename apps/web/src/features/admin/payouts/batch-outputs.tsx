import type { PayoutBatch } from '@offzero/shared/api/payout-batches';
import { adminPaths } from '../admin-paths';
import { shortOrderId } from '../format';

/** Each order's output of the batch, and the change back to the payout wallet. */
export function BatchOutputs({ batch }: { batch: PayoutBatch }) {
  return (
    <details className="text-sm">
      <summary className="cursor-pointer text-slate-600">Outputs and change</summary>
      <ul className="mt-2 space-y-1">
        {batch.outputs.map((output) => (
          <li
            key={output.orderId}
            className="flex flex-wrap gap-x-2 break-all"
            data-testid="batch-output"
            data-order-id={output.orderId}
          >
            <a className="text-brand-700 hover:underline" href={adminPaths.order(output.orderId)}>
              {shortOrderId(output.orderId)}
            </a>
            <span className="tabular-nums">{output.amount} BTC</span>
            <span className="font-mono text-xs text-slate-600">{output.address}</span>
            {output.vout !== null && <span className="text-xs text-slate-500">output {output.vout}</span>}
          </li>
        ))}
        {batch.changeAddress && (
          <li className="flex flex-wrap gap-x-2 break-all text-slate-600">
            <span>Change</span>
            <span className="tabular-nums">{batch.changeAmount} BTC</span>
            <span className="font-mono text-xs">{batch.changeAddress}</span>
          </li>
        )}
      </ul>
    </details>
  );
}
