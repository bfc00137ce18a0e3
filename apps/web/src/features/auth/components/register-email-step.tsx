import { toast } from '../../../lib/toast';
import { errorMessage } from '../../../lib/api-client';
import { firstError, useZodForm } from '../../../lib/forms';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { useSendRegistrationCode } from '../api/registration';
import { registerEmailFormSchema } from '../validation';
import { GoogleSignIn } from './google-sign-in';

/**
 * Registration step 1: the e-mail address (and an optional referral code) to send the first code to.
 * The answer is the same whether or not the address has an account (an existing owner gets an e-mail
 * telling them how to log in), so this step never says so either.
 */
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
  const send = useSendRegistrationCode();

  const submit = form.handleSubmit(
    ({ email, referralCode }) => {
      send.mutate(email, {
        onSuccess: (answer) => {
          toast.success(answer.message);
          onCodeSent(email, referralCode);
        },
        onError: (error) => toast.error(errorMessage(error)),
      });
    },
    (errors) => {
      const problem = firstError(errors, ['email', 'referralCode']);
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
        <TextField
          label="Referral Code"
          optional
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          {...form.textField('referralCode')}
          hint="Got a code from a friend? Enter it here."
        />
        <Button type="submit" size="lg" fullWidth loading={send.isPending}>
          Continue
        </Button>
      </form>
      <GoogleSignIn />
    </div>
  );
}
