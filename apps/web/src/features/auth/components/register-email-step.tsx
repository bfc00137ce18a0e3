import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import toast from 'react-hot-toast';
import { paths } from '../../../config/paths';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { AlertIcon } from '../../../components/ui/icons';
import { useSendRegistrationCode } from '../api/registration';
import { emailError, referralCodeError } from '../validation';
import { GoogleSignIn } from './google-sign-in';

/** Registration step 1: the e-mail address (and an optional referral code) to send the first code to. */
export function RegisterEmailStep({
  defaultEmail = '',
  defaultReferralCode = '',
  onCodeSent,
}: {
  defaultEmail?: string;
  defaultReferralCode?: string;
  onCodeSent: (email: string, referralCode: string) => void;
}) {
  const [email, setEmail] = useState(defaultEmail);
  const [referralCode, setReferralCode] = useState(defaultReferralCode);
  const [errors, setErrors] = useState<{ email?: string | null; referralCode?: string | null }>({});
  // Set when the server says the address already has an account: offer the way to log in.
  const [existingAccount, setExistingAccount] = useState<{ email: string; message: string } | null>(null);
  const send = useSendRegistrationCode();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmedEmail = email.trim();
    const trimmedReferral = referralCode.trim();
    const found = { email: emailError(trimmedEmail), referralCode: referralCodeError(trimmedReferral) };
    setErrors(found);
    const firstError = found.email ?? found.referralCode;
    if (firstError) {
      toast.error(firstError);
      return;
    }
    setExistingAccount(null);
    send.mutate(trimmedEmail, {
      onSuccess: (answer) => {
        toast.success(answer.message);
        onCodeSent(trimmedEmail, trimmedReferral);
      },
      onError: (error) => {
        if (error instanceof ApiError && error.status === 409) {
          setExistingAccount({ email: trimmedEmail, message: error.message });
        }
        toast.error(errorMessage(error));
      },
    });
  }

  return (
    <div className="space-y-6">
      <form noValidate onSubmit={submit} className="space-y-5">
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          placeholder="you@example.com"
          value={email}
          onChange={(event) => {
            setEmail(event.target.value);
            setErrors((current) => ({ ...current, email: null }));
          }}
          error={errors.email}
          autoFocus
        />
        <TextField
          label="Referral Code"
          optional
          name="referralCode"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          value={referralCode}
          onChange={(event) => {
            setReferralCode(event.target.value);
            setErrors((current) => ({ ...current, referralCode: null }));
          }}
          error={errors.referralCode}
          hint="Got a code from a friend? Enter it here."
        />
        {existingAccount && (
          <div
            role="alert"
            className="flex gap-3 rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200"
          >
            <AlertIcon className="mt-0.5 size-4 shrink-0" />
            <p>
              {existingAccount.message}{' '}
              <Link
                to={paths.login}
                state={{ email: existingAccount.email }}
                className="font-semibold underline underline-offset-2"
              >
                Log in
              </Link>
            </p>
          </div>
        )}
        <Button type="submit" size="lg" fullWidth loading={send.isPending}>
          Continue
        </Button>
      </form>
      <GoogleSignIn />
    </div>
  );
}
