import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Button } from '../../../components/ui/button';
import { CodeField } from '../../../components/ui/code-field';
import { codeError } from '../validation';
import { DemoCodeHint } from './demo-code-hint';
import { ResendCodeButton } from './resend-code-button';

/**
 * The form every one-time-code step shares (verify e-mail, verify phone, log in): the code field, the
 * demo hint, the submit button, a way back and the resend control. Each step supplies what happens.
 */
export function CodeEntryForm({
  recipient,
  submitLabel,
  backLabel,
  onBack,
  pending,
  validate = codeError,
  onSubmitCode,
  onResend,
}: {
  recipient: string;
  submitLabel: string;
  backLabel: string;
  onBack: () => void;
  pending: boolean;
  /** The message to show for this code, or null when it may be sent. */
  validate?: (code: string) => string | null;
  onSubmitCode: (code: string) => void;
  onResend: () => Promise<boolean>;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = validate(code);
    setError(problem);
    if (problem) {
      toast.error(problem);
      return;
    }
    onSubmitCode(code.trim());
  }

  return (
    <form noValidate onSubmit={submit} className="space-y-5">
      <CodeField
        value={code}
        onChange={(value) => {
          setCode(value);
          setError(null);
        }}
        error={error}
        autoFocus
      />
      <DemoCodeHint recipient={recipient} />
      <Button type="submit" size="lg" fullWidth loading={pending}>
        {submitLabel}
      </Button>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <button
          type="button"
          onClick={onBack}
          className="rounded-full px-1 text-sm font-medium text-slate-600 underline-offset-2 hover:text-ink-900 hover:underline"
        >
          {backLabel}
        </button>
        <ResendCodeButton onResend={onResend} />
      </div>
    </form>
  );
}
