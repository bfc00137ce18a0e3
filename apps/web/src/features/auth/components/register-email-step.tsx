import { useState } from 'react';
import { Link } from 'react-router';
import toast from 'react-hot-toast';
import { paths } from '../../../config/paths';
import { errorMessage, hasErrorCode } from '../../../lib/api-client';
import { firstError, useZodForm } from '../../../lib/forms';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { AlertIcon } from '../../../components/ui/icons';
import { useSendRegistrationCode } from '../api/registration';
import { registerEmailFormSchema } from '../validation';
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
  const form = useZodForm(registerEmailFormSchema, {
    defaultValues: { email: defaultEmail, referralCode: defaultReferralCode },
  });
  // Set when the server says the address already has an account: offer the way to log in.
  const [existingAccount, setExistingAccount] = useState<{ email: string; message: string } | null>(null);
  const send = useSendRegistrationCode();

  const submit = form.handleSubmit(
    ({ email, referralCode }) => {
      setExistingAccount(null);
      send.mutate(email, {
        onSuccess: (answer) => {
          toast.success(answer.message);
          onCodeSent(email, referralCode);
        },
        onError: (error) => {
          if (hasErrorCode(error, 'ACCOUNT_EXISTS')) setExistingAccount({ email, message: error.message });
          toast.error(errorMessage(error));
        },
      });
    },
    (errors) => {
      const problem = firstError(errors, ['email', 'referralCode']);
      if (problem) toast.error(problem);
    },
  );

  return (
    <div className="space-y-6">
      <form noValidate onSubmit={(event) => void submit(event)} className="space-y-5">
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          placeholder="you@example.com"
          {...form.textField('email')}
          autoFocus
        />
        <TextField
          label="Referral Code"
          optional
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          {...form.textField('referralCode')}
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
