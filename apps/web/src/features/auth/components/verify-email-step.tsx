import { toast } from '../../../lib/toast';
import { errorMessage } from '../../../lib/api-client';
import { resendRegistrationCode, useVerifyRegistrationEmail } from '../api/registration';
import { CodeEntryForm } from './code-entry-form';
import { toastResend } from './toast-resend';

/** Registration step 2: the code from the e-mail. Verifying it creates the account. */
export function VerifyEmailStep({
  email,
  referralCode,
  onVerified,
  onChangeEmail,
}: {
  email: string;
  referralCode: string;
  onVerified: (registrationToken: string) => void;
  onChangeEmail: () => void;
}) {
  const verify = useVerifyRegistrationEmail();
  return (
    <CodeEntryForm
      recipient={email}
      submitLabel="Verify email"
      backLabel="Change email"
      onBack={onChangeEmail}
      pending={verify.isPending}
      onSubmitCode={(code) =>
        verify.mutate(
          { email, code, referralCode },
          {
            onSuccess: (answer) => {
              toast.success(answer.message);
              onVerified(answer.registrationToken);
            },
            onError: (failure) => toast.error(errorMessage(failure)),
          },
        )
      }
      onResend={() => toastResend(resendRegistrationCode(email))}
    />
  );
}
