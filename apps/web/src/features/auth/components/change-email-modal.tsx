import { useState } from 'react';
import { toast } from '../../../lib/toast';
import type { User } from '@offzero/shared/api/accounts';
import { errorMessage } from '../../../lib/api-client';
import { useStoreCurrentUser } from '../../../lib/current-user';
import { fieldError, useZodForm } from '../../../lib/forms';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { TextField } from '../../../components/ui/text-field';
import { sendEmailChangeCode, useConfirmEmailChange, useSendEmailChangeCode } from '../api/email-change';
import { loginEmailFormSchema } from '../validation';
import { StepUpStep } from './step-up-step';
import { CodeEntryForm } from './code-entry-form';
import { toastResend } from './toast-resend';

/**
 * The settings' Change email dialog: the security code sent to the current address (step-up), the new
 * address, then the code sent to it. The old address is told of the change by the server.
 */
export function ChangeEmailModal({
  user,
  open,
  onClose,
}: {
  user: User;
  open: boolean;
  onClose: () => void;
}) {
  const [stepUpCode, setStepUpCode] = useState<string | null>(null);
  const [newEmail, setNewEmail] = useState<string | null>(null);
  const storeUser = useStoreCurrentUser();
  const confirm = useConfirmEmailChange();

  function close() {
    setStepUpCode(null);
    setNewEmail(null);
    onClose();
  }

  return (
    <Modal
      open={open}
      onClose={close}
      title="Change your email"
      description={
        !stepUpCode
          ? `First confirm it is you: we send a security code to ${user.email}.`
          : !newEmail
            ? 'Enter the new address. We send it a code to confirm it is yours.'
            : `Enter the 6-digit code we sent to ${newEmail}.`
      }
    >
      {!stepUpCode ? (
        <StepUpStep email={user.email} onCode={setStepUpCode} />
      ) : !newEmail ? (
        <NewEmailStep
          stepUpCode={stepUpCode}
          onCodeSent={setNewEmail}
          onRestart={() => setStepUpCode(null)}
        />
      ) : (
        <CodeEntryForm
          recipient={newEmail}
          submitLabel="Change email"
          backLabel="Start again"
          onBack={() => {
            setNewEmail(null);
            setStepUpCode(null);
          }}
          pending={confirm.isPending}
          onSubmitCode={(code) =>
            confirm.mutate(
              { newEmail, code },
              {
                onSuccess: (answer) => {
                  toast.success(answer.message);
                  storeUser(answer.user);
                  close();
                },
                onError: (failure) => toast.error(errorMessage(failure)),
              },
            )
          }
          onResend={() => toastResend(sendEmailChangeCode({ newEmail, stepUpCode }))}
        />
      )}
    </Modal>
  );
}

function NewEmailStep({
  stepUpCode,
  onCodeSent,
  onRestart,
}: {
  stepUpCode: string;
  onCodeSent: (email: string) => void;
  onRestart: () => void;
}) {
  const form = useZodForm(loginEmailFormSchema, { defaultValues: { email: '' } });
  const send = useSendEmailChangeCode();
  const submit = form.handleSubmit(
    ({ email }) =>
      send.mutate(
        { newEmail: email, stepUpCode },
        {
          onSuccess: (answer) => {
            toast.success(answer.message);
            onCodeSent(email);
          },
          onError: (failure) => {
            toast.error(errorMessage(failure));
            // The security code is used up or wrong: ask for a new one.
            onRestart();
          },
        },
      ),
    (errors) => {
      const problem = fieldError(errors, 'email');
      if (problem) toast.error(problem);
    },
  );
  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="space-y-5">
      <TextField label="New email" type="email" autoComplete="email" {...form.textField('email')} autoFocus />
      <Button type="submit" size="lg" fullWidth loading={send.isPending}>
        Send code
      </Button>
    </form>
  );
}
