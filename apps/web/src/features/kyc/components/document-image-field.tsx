import type { ChangeEvent } from 'react';
import { KYC_IMAGE_TYPES } from '@offzero/shared/api/kyc';
import { FieldMessage } from '../../../components/ui/text-field';
import { IdCardIcon } from '../../../components/ui/icons';

/** The chosen photo of the document, with its preview's object URL when the browser makes one. */
export interface ChosenDocument {
  file: File;
  preview: string | null;
}

/** The document image input of the verification form: a drop zone with the preview and its message. */
export function DocumentImageField({
  fileId,
  document,
  error,
  onChange,
}: {
  /** The input's id; its label, help and message ids derive from it. */
  fileId: string;
  document: ChosenDocument | null;
  error: string | null;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
}) {
  return (
    <div>
      <p id={`${fileId}-label`} className="block text-sm font-medium text-slate-700">
        Document image
      </p>
      <label
        className={`mt-1.5 flex cursor-pointer items-center gap-4 rounded-xl border border-dashed p-4 transition-colors hover:bg-slate-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500/40 ${
          error ? 'border-red-500' : 'border-slate-300'
        }`}
      >
        <input
          id={fileId}
          type="file"
          name="document"
          accept={KYC_IMAGE_TYPES.join(',')}
          onChange={onChange}
          aria-labelledby={`${fileId}-label`}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${fileId}-message` : `${fileId}-help`}
          className="sr-only"
        />
        {document?.preview ? (
          <img
            src={document.preview}
            alt="Preview of your document"
            className="size-16 shrink-0 rounded-lg object-cover ring-1 ring-slate-200"
          />
        ) : (
          <span className="inline-flex size-16 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
            <IdCardIcon className="size-7" />
          </span>
        )}
        <span className="min-w-0 text-sm">
          <span className="block font-semibold break-all text-ink-900">
            {document ? document.file.name : 'Choose a photo of your document'}
          </span>
          <span id={`${fileId}-help`} className="mt-0.5 block text-slate-500">
            {document
              ? 'Choose again to use another photo.'
              : 'JPEG, PNG or WebP, up to 5 MB, with all four corners visible.'}
          </span>
        </span>
      </label>
      <FieldMessage id={`${fileId}-message`} error={error} />
    </div>
  );
}
