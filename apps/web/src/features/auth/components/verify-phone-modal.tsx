import { useState } from 'react';
import { formatPhoneNumberIntl } from 'react-phone-number-input/max';
import type { User } from '@offzero/shared/api/accounts';
import { useStoreCurrentUser } from '../../../lib/current-user';
import { Modal } from '../../../components/ui/modal';
import { PhoneNumberStep } from './phone-number-step';
import { StepUpStep } from './step-up-step';
import { VerifyPhoneStep } from './verify-phone-step';

/**
 * The dashboard's Verify Phone dialog and the settings' Change phone dialog: the
 * registration's phone steps, authorized by the session. Changing a verified number first asks for the
 * security code sent to the account's e-mail (step-up, docs/design.md). Success puts the verified
 * profile in the cache and closes the dialog.
 */
export function VerifyPhoneModal({
  user,
  open,
  onClose,
}: {
  user: User;
  open: boolean;
  onClose: () => void;
}) {
  const [phone, setPhone] = useState<string | null>(null);
  const changing = user.phone_verified;
  const [stepUpCode, setStepUpCode] = useState<string | null>(null);
  const storeUser = useStoreCurrentUser();

  function close() {
    setPhone(null);
    setStepUpCode(null);
    onClose();
  }

  if (changing && !stepUpCode) {
    return (
      <Modal
        open={open}
        onClose={close}
        title="Change your phone"
        description={`First confirm it is you: we send a security code to ${user.email}.`}
      >
        <StepUpStep email={user.email} onCode={setStepUpCode} />
      </Modal>
    );
  }

  return (
    <Modal
      open={open}
      onClose={close}
      title={phone ? 'Enter the code' : 'Verify your phone'}
      description={
        phone
          ? `We sent a 6-digit code by text message to ${formatPhoneNumberIntl(phone) || phone}.`
          : 'Add the mobile number you use. We verify it to protect your account.'
      }
    >
      {phone ? (
        <VerifyPhoneStep
          email={user.email}
          phone={phone}
          onVerified={(session) => {
            // The answer carries a new session token too; the current session stays in use.
            storeUser(session.user);
            close();
          }}
          onChangePhone={() => setPhone(null)}
        />
      ) : (
        <PhoneNumberStep
          email={user.email}
          defaultPhone={changing ? undefined : (user.phoneNumber ?? undefined)}
          stepUpCode={stepUpCode ?? undefined}
          onCodeSent={setPhone}
        />
      )}
    </Modal>
  );
}
