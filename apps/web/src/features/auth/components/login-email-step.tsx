import { toast } from '../../../lib/toast';
import { errorMessage } from '../../../lib/api-client';
import { fieldError, useZodForm } from '../../../lib/forms';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { useSendLoginCode } from '../api/login';
import { loginEmailFormSchema } from '../validation';
import { GoogleSignIn } from './google-sign-in';
import { PasskeySignInButton } from './passkey-sign-in';

/**
 * Login step 1: the address to send the login code to. The server answers every well-formed address
 * the same way (it never tells whether an account exists), so this step always moves on to the code.
 */
export function LoginEmailStep({
  defaultEmail,
  onCodeSent,
}: {
  defaultEmail: string;
  onCodeSent: (email: string) => void;
}) {
  const form = useZodForm(loginEmailFormSchema, { defaultValues: { email: defaultEmail } });
  const send = useSendLoginCode();

  const submit = form.handleSubmit(
    ({ email }) => {
      send.mutate(email, {
        onSuccess: (answer) => {
          toast.success(answer.message);
          onCodeSent(email);
        },
        onError: (failure) => toast.error(errorMessage(failure)),
      });
    },
    (errors) => {
      const problem = fieldError(errors, 'email');
      if (problem) toast.error(problem);
    },
  );

  return (
    <div className="space-y-6">
      <form method="post" noValidate onSubmit={(event) => void submit(event)} className="space-y-5">
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          placeholder="you@example.com"
          {...form.textField('email')}
          autoFocus
        />
        <Button type="submit" size="lg" fullWidth loading={send.isPending}>
          Send code
        </Button>
      </form>
      <div className="space-y-4">
        <div className="flex items-center gap-3 text-xs font-medium tracking-wider text-slate-500 uppercase">
          <span className="h-px flex-1 bg-slate-200" />
          or
          <span className="h-px flex-1 bg-slate-200" />
        </div>
        <PasskeySignInButton />
      </div>
      <GoogleSignIn />
    </div>
  );
}
