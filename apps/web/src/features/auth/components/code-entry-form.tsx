import { toast } from '../../../lib/toast';
import type { z } from 'zod';
import { fieldError, useZodForm } from '../../../lib/forms';
import { Button } from '../../../components/ui/button';
import { CodeField } from '../../../components/ui/code-field';
import { codeFormSchema, type CodeForm } from '../validation';
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
  schema = codeFormSchema,
  onSubmitCode,
  onResend,
  sentByUs = true,
}: {
  recipient: string;
  submitLabel: string;
  backLabel: string;
  onBack: () => void;
  pending: boolean;
  /** The rules the code is checked with before it is sent (the six digits, by default). */
  schema?: z.ZodType<{ code: string }, CodeForm>;
  onSubmitCode: (code: string) => void;
  onResend: () => Promise<boolean>;
  /** False when the code is not one OffZero sends (an authenticator app's): no demo outbox holds it. */
  sentByUs?: boolean;
}) {
  const form = useZodForm(schema, { defaultValues: { code: '' } });
  const submit = form.handleSubmit(
    ({ code }) => onSubmitCode(code),
    (errors) => {
      const problem = fieldError(errors, 'code');
      if (problem) toast.error(problem);
    },
  );

  return (
    <form method="post" noValidate onSubmit={(event) => void submit(event)} className="space-y-5">
      <CodeField
        value={form.watch('code')}
        onChange={(value) => {
          form.setValue('code', value);
          form.clearOnEdit('code');
        }}
        error={form.errorOf('code')}
        autoFocus
      />
      {sentByUs && <DemoCodeHint recipient={recipient} />}
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
