import { useState } from 'react';
import { Link } from 'react-router';
import toast from 'react-hot-toast';
import { paths } from '../../../config/paths';
import { errorMessage, hasErrorCode } from '../../../lib/api-client';
import { fieldError, useZodForm } from '../../../lib/forms';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { AlertIcon } from '../../../components/ui/icons';
import { useSendLoginCode } from '../api/login';
import { loginEmailFormSchema } from '../validation';
import { GoogleSignIn } from './google-sign-in';

/** Login step 1: the address to send the login code to. */
export function LoginEmailStep({
  defaultEmail,
  onCodeSent,
}: {
  defaultEmail: string;
  onCodeSent: (email: string) => void;
}) {
  const form = useZodForm(loginEmailFormSchema, { defaultValues: { email: defaultEmail } });
  const [noAccount, setNoAccount] = useState<string | null>(null);
  const send = useSendLoginCode();

  const submit = form.handleSubmit(
    ({ email }) => {
      setNoAccount(null);
      send.mutate(email, {
        onSuccess: (answer) => {
          toast.success(answer.message);
          onCodeSent(email);
        },
        onError: (failure) => {
          if (hasErrorCode(failure, 'ACCOUNT_NOT_FOUND')) setNoAccount(failure.message);
          toast.error(errorMessage(failure));
        },
      });
    },
    (errors) => {
      const problem = fieldError(errors, 'email');
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
        {noAccount && (
          <div
            role="alert"
            className="flex gap-3 rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200"
          >
            <AlertIcon className="mt-0.5 size-4 shrink-0" />
            <p>
              {noAccount}{' '}
              <Link to={paths.register} className="font-semibold underline underline-offset-2">
                Register
              </Link>
            </p>
          </div>
        )}
        <Button type="submit" size="lg" fullWidth loading={send.isPending}>
          Send code
        </Button>
      </form>
      <GoogleSignIn />
    </div>
  );
}
