import type { SessionResponse } from '@offzero/shared/api/accounts';
import { toast } from '../../../lib/toast';
import { errorMessage } from '../../../lib/api-client';
import { Button } from '../../../components/ui/button';
import { useCompleteMfaWithPasskey, useSignInWithPasskey } from '../api/passkey-login';
import { useCompleteSignIn } from '../use-complete-sign-in';

/** A browser that closed or refused its passkey dialog: no error worth more than a short note. */
function passkeyFailure(error: unknown): string {
  if (error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError')) {
    return 'No passkey was used. Try again, or log in with an e-mail code.';
  }
  return errorMessage(error);
}

/** What either passkey button does with its answer: go in with the session, or say why it did not. */
function usePasskeySignInOutcome() {
  const completeSignIn = useCompleteSignIn();
  return {
    onSuccess: (session: SessionResponse) => {
      toast.success(session.message);
      completeSignIn(session);
    },
    onError: (error: unknown) => toast.error(passkeyFailure(error)),
  };
}

/** "Sign in with a passkey": the browser offers the passkeys it holds for OffZero. */
export function PasskeySignInButton() {
  const signIn = useSignInWithPasskey();
  const outcome = usePasskeySignInOutcome();
  return (
    <Button
      variant="outline"
      size="lg"
      fullWidth
      loading={signIn.isPending}
      onClick={() => signIn.mutate(undefined, outcome)}
    >
      Sign in with a passkey
    </Button>
  );
}

/** An admin's second step with a passkey instead of the authenticator app's code. */
export function PasskeySecondFactorButton({ mfaToken }: { mfaToken: string }) {
  const confirm = useCompleteMfaWithPasskey();
  const outcome = usePasskeySignInOutcome();
  return (
    <Button
      variant="outline"
      size="lg"
      fullWidth
      loading={confirm.isPending}
      onClick={() => confirm.mutate(mfaToken, outcome)}
    >
      Use a passkey instead
    </Button>
  );
}
