import { toast } from '../../../lib/toast';
import { errorMessage } from '../../../lib/api-client';

/** Shows the outcome of a resend as a notice; true when a new code is on its way. */
export async function toastResend(sending: Promise<{ message: string }>): Promise<boolean> {
  try {
    toast.success((await sending).message);
    return true;
  } catch (error) {
    toast.error(errorMessage(error));
    return false;
  }
}
