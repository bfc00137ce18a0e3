import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import toast from 'react-hot-toast';
import { paths } from '../../../config/paths';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { AlertIcon } from '../../../components/ui/icons';
import { useSendLoginCode } from '../api/login';
import { emailError } from '../validation';
import { GoogleSignIn } from './google-sign-in';

/** Login step 1: the address to send the login code to. */
export function LoginEmailStep({
  defaultEmail,
  onCodeSent,
}: {
  defaultEmail: string;
  onCodeSent: (email: string) => void;
}) {
  const [email, setEmail] = useState(defaultEmail);
  const [error, setError] = useState<string | null>(null);
  const [noAccount, setNoAccount] = useState<string | null>(null);
  const send = useSendLoginCode();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = email.trim();
    const problem = emailError(value);
    setError(problem);
    if (problem) {
      toast.error(problem);
      return;
    }
    setNoAccount(null);
    send.mutate(value, {
      onSuccess: (answer) => {
        toast.success(answer.message);
        onCodeSent(value);
      },
      onError: (failure) => {
        if (failure instanceof ApiError && failure.status === 404) setNoAccount(failure.message);
        toast.error(errorMessage(failure));
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
            setError(null);
          }}
          error={error}
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
