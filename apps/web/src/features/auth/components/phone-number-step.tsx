import { toast } from '../../../lib/toast';
import { errorMessage } from '../../../lib/api-client';
import { fieldError, useZodForm } from '../../../lib/forms';
import { Button } from '../../../components/ui/button';
import { useSendPhoneCode } from '../api/phone-verification';
import { phoneFormSchema } from '../phone-validation';
import { PhoneField } from './phone-field';

/**
 * Registration step 3, and the first step of the dashboard's Verify Phone dialog: the number to send
 * the SMS code to.
 */
export function PhoneNumberStep({
  email,
  registrationToken,
  stepUpCode,
  defaultPhone,
  onCodeSent,
  submitLabel = 'Send code',
}: {
  email: string;
  registrationToken?: string;
  /** Changing a verified number: the security code from the e-mail. */
  stepUpCode?: string;
  defaultPhone?: string;
  onCodeSent: (phone: string) => void;
  submitLabel?: string;
}) {
  const form = useZodForm(phoneFormSchema, { defaultValues: { phone: defaultPhone } });
  const send = useSendPhoneCode();

  const submit = form.handleSubmit(
    ({ phone }) =>
      send.mutate(
        { email, phone, registrationToken, stepUpCode },
        {
          onSuccess: (answer) => {
            toast.success(answer.message);
            onCodeSent(phone);
          },
          onError: (failure) => toast.error(errorMessage(failure)),
        },
      ),
    (errors) => {
      const problem = fieldError(errors, 'phone');
      if (problem) toast.error(problem);
    },
  );

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="space-y-5">
      <PhoneField
        value={form.watch('phone')}
        onChange={(next) => {
          form.setValue('phone', next);
          form.clearOnEdit('phone');
        }}
        error={form.errorOf('phone')}
        autoFocus
      />
      <p className="text-sm text-slate-600">We will send you 6 digit verification code</p>
      <Button type="submit" size="lg" fullWidth loading={send.isPending}>
        {submitLabel}
      </Button>
    </form>
  );
}
