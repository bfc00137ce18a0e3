import { useId, useState, type ChangeEvent } from 'react';
import type { PayoutBatch } from '@offzero/shared/api/payout-batches';
import { errorMessage } from '../../../lib/api-client';
import { useAppConfig } from '../../../lib/app-config';
import { saveBlob } from '../../../lib/save-blob';
import { toast } from '../../../lib/toast';
import { Button } from '../../../components/ui/button';
import { DownloadIcon } from '../../../components/ui/icons';
import { downloadBatchPsbt } from '../api/download-batch-psbt';
import { signBatchWithDemoWallet } from '../api/sign-batch-with-demo-wallet';
import type { RunBatchAction } from './run-batch-action';

/**
 * A batch awaiting its signature: download the unsigned PSBT, sign it elsewhere (or with the demo
 * wallet in the demo), upload the signed one as a file or pasted, or abandon the batch.
 */
export function BatchSigning({
  batch,
  run,
  busy,
  setError,
}: {
  batch: PayoutBatch;
  run: RunBatchAction;
  busy: boolean;
  setError: (message: string | null) => void;
}) {
  const { mode } = useAppConfig();
  const [signed, setSigned] = useState('');
  const [working, setWorking] = useState<string | null>(null);
  const fileId = useId();
  const pasteId = useId();
  const count = batch.orderIds.length;

  const download = async () => {
    setError(null);
    try {
      const file = await downloadBatchPsbt(batch.id);
      saveBlob(file.blob, file.filename ?? `offzero-batch-${batch.id.slice(0, 8)}.psbt`);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };

  const demoSign = async () => {
    setError(null);
    setWorking('sign');
    try {
      const { psbt } = await signBatchWithDemoWallet(batch.id);
      setSigned(psbt);
      toast.success('Signed with the demo wallet. Upload it to broadcast.');
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setWorking(null);
    }
  };

  const readFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const bytes = new Uint8Array(await file.arrayBuffer());
    // A binary PSBT starts with "psbt" 0xff (BIP 174); anything else is read as base64 text.
    const binary =
      bytes[0] === 0x70 && bytes[1] === 0x73 && bytes[2] === 0x62 && bytes[3] === 0x74 && bytes[4] === 0xff;
    setSigned(binary ? toBase64(bytes) : new TextDecoder().decode(bytes).trim());
  };

  const upload = async () => {
    setWorking('upload');
    const answer = await run({ kind: 'signed', batchId: batch.id, psbt: signed }, setError);
    setWorking(null);
    if (answer) {
      setSigned('');
      toast.success(`Broadcast. ${count} order${count === 1 ? '' : 's'} completed.`);
    }
  };

  return (
    <div className="space-y-3 rounded-xl bg-slate-50 p-3">
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={() => void download()}>
          <DownloadIcon className="size-4" /> Download PSBT
        </Button>
        {mode === 'demo' && (
          <Button variant="outline" size="sm" loading={working === 'sign'} onClick={() => void demoSign()}>
            Sign with the demo wallet
          </Button>
        )}
        <Button
          variant="ghost"
          size="sm"
          disabled={busy}
          onClick={() => void run({ kind: 'abandon', batchId: batch.id }, setError)}
        >
          Abandon batch
        </Button>
      </div>
      <div className="space-y-2">
        <label htmlFor={fileId} className="block text-xs font-medium text-slate-600">
          Signed PSBT file
        </label>
        <input
          id={fileId}
          type="file"
          accept=".psbt,.txt,application/octet-stream,text/plain"
          onChange={(event) => void readFile(event)}
          className="block w-full text-sm text-slate-600 file:mr-3 file:rounded-full file:border-0 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-ink-900 file:ring-1 file:ring-slate-200"
        />
        <label htmlFor={pasteId} className="block text-xs font-medium text-slate-600">
          …or paste it (base64)
        </label>
        <textarea
          id={pasteId}
          value={signed}
          onChange={(event) => setSigned(event.target.value)}
          rows={3}
          spellCheck={false}
          className="block w-full rounded-lg border-0 bg-white px-3 py-2 font-mono text-xs break-all text-ink-900 ring-1 ring-slate-200 focus:ring-2 focus:ring-brand-500"
          placeholder="cHNidP8B…"
        />
        <Button
          size="sm"
          loading={working === 'upload'}
          disabled={!signed.trim() || busy}
          onClick={() => void upload()}
        >
          Upload and broadcast
        </Button>
      </div>
    </div>
  );
}

function toBase64(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}
