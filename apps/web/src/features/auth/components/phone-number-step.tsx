import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { errorMessage } from '../../../lib/api-client';
import { Button } from '../../../components/ui/button';
import { useSendPhoneCode } from '../api/phone-verification';
import { phoneError } from '../validation';
import { PhoneField } from './phone-field';

/**
 * Registration step 3, and the first step of the dashboard's Verify Phone dialog: the number to send
 * the SMS code to.
 */
export function PhoneNumberStep({
  email,
  registrationToken,
  defaultPhone,
  onCodeSent,
  submitLabel = 'Send code',
}: {
  email: string;
  registrationToken?: string;
  defaultPhone?: string;
  onCodeSent: (phone: string) => void;
  submitLabel?: string;
}) {
  const [phone, setPhone] = useState<string | undefined>(defaultPhone);
  const [error, setError] = useState<string | null>(null);
  const send = useSendPhoneCode();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = phoneError(phone);
    setError(problem);
    if (problem || !phone) {
      if (problem) toast.error(problem);
      return;
    }
    send.mutate(
      { email, phone, registrationToken },
      {
        onSuccess: (answer) => {
          toast.success(answer.message);
          onCodeSent(phone);
        },
        onError: (failure) => toast.error(errorMessage(failure)),
      },
    );
  }

  return (
    <form noValidate onSubmit={submit} className="space-y-5">
      <PhoneField
        value={phone}
        onChange={(next) => {
          setPhone(next);
          setError(null);
        }}
        error={error}
        autoFocus
      />
      <p className="text-sm text-slate-600">We will send you 6 digit verification code</p>
      <Button type="submit" size="lg" fullWidth loading={send.isPending}>
        {submitLabel}
      </Button>
    </form>
  );
}
