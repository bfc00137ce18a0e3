import { useState } from 'react';
import { toast } from '../../../lib/toast';
import { errorMessage } from '../../../lib/api-client';
import { Button } from '../../../components/ui/button';
import { sendStepUpCode, useSendStepUpCode } from '../api/phone-verification';
import { CodeEntryForm } from './code-entry-form';
import { toastResend } from './toast-resend';

/**
 * The step-up before a contact changes (docs/design.md): send the security code to the current e-mail,
 * then enter it; the server checks it with the change itself.
 */
export function StepUpStep({ email, onCode }: { email: string; onCode: (code: string) => void }) {
  const send = useSendStepUpCode();
  const [sent, setSent] = useState(false);
  if (!sent) {
    return (
      <Button
        size="lg"
        fullWidth
        loading={send.isPending}
        onClick={() =>
          send.mutate(undefined, {
            onSuccess: (answer) => {
              toast.success(answer.message);
              setSent(true);
            },
            onError: (failure) => toast.error(errorMessage(failure)),
          })
        }
      >
        Send security code
      </Button>
    );
  }
  return (
    <CodeEntryForm
      recipient={email}
      submitLabel="Continue"
      backLabel="Send another code"
      onBack={() => setSent(false)}
      pending={false}
      onSubmitCode={onCode}
      onResend={() => toastResend(sendStepUpCode())}
    />
  );
}
