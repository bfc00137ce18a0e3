import { toast } from '../../../lib/toast';
import type { SessionResponse } from '@offzero/shared/api/accounts';
import { errorMessage } from '../../../lib/api-client';
import { sendPhoneCode, useVerifyPhone } from '../api/phone-verification';
import { smsCodeFormSchema } from '../phone-validation';
import { CodeEntryForm } from './code-entry-form';
import { toastResend } from './toast-resend';

/**
 * Registration step 4, and the second step of the dashboard's Verify Phone dialog: the SMS code. The
 * answer is a session (a new login at the end of registration).
 */
export function VerifyPhoneStep({
  email,
  phone,
  registrationToken,
  onVerified,
  onChangePhone,
  submitLabel = 'Verify phone',
}: {
  email: string;
  phone: string;
  registrationToken?: string;
  onVerified: (session: SessionResponse) => void;
  onChangePhone: () => void;
  submitLabel?: string;
}) {
  const verify = useVerifyPhone();
  return (
    <CodeEntryForm
      recipient={phone}
      submitLabel={submitLabel}
      backLabel="Change number"
      onBack={onChangePhone}
      pending={verify.isPending}
      // This step checks the phone as well, and reports any problem as a missing code.
      schema={smsCodeFormSchema(phone)}
      onSubmitCode={(code) =>
        verify.mutate(
          { email, phone, code, registrationToken },
          {
            onSuccess: (session) => {
              toast.success(session.message);
              onVerified(session);
            },
            onError: (failure) => toast.error(errorMessage(failure)),
          },
        )
      }
      onResend={() => toastResend(sendPhoneCode({ email, phone, registrationToken }))}
    />
  );
}
