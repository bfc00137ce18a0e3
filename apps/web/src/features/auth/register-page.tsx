import { lazy, Suspense, useEffect, useState, type ComponentProps } from 'react';
import { Link, useSearchParams } from 'react-router';
import { paths } from '../../config/paths';
import { deferredComponent } from '../../lib/deferred-component';
import { onFirstInput } from '../../lib/first-input';
import { AuthCard } from './components/auth-card';
import { PhoneNumberDisplay } from '../../components/ui/phone-number-display';
import { StepLoading } from './components/step-loading';

// The e-mail steps' code (validation schemas, form state) loads once the prerendered page is
// interactive.
const RegisterEmailStep = deferredComponent(
  async () => (await import('./components/register-email-step')).RegisterEmailStep,
  <StepLoading />,
);
const VerifyEmailStep = deferredComponent(
  async () => (await import('./components/verify-email-step')).VerifyEmailStep,
  <StepLoading />,
);

// The phone steps bring the phone number rules (libphonenumber's metadata, about 50 kB gzip): they load
// while the visitor verifies their e-mail, not with the page.
const loadPhoneNumberStep = () => import('./components/phone-number-step');
const loadVerifyPhoneStep = () => import('./components/verify-phone-step');
const PhoneNumberStep = lazy(async () => ({ default: (await loadPhoneNumberStep()).PhoneNumberStep }));
const VerifyPhoneStep = lazy(async () => {
  const [{ VerifyPhoneStep: Step }, { useCompleteSignIn }] = await Promise.all([
    loadVerifyPhoneStep(),
    import('./use-complete-sign-in'),
  ]);
  // The last step signs the new customer in; that code (the customer's profile schema) comes with it.
  function VerifyPhoneAndSignIn(props: Omit<ComponentProps<typeof Step>, 'onVerified'>) {
    const completeSignIn = useCompleteSignIn();
    return <Step {...props} onVerified={completeSignIn} />;
  }
  return { default: VerifyPhoneAndSignIn };
});

/** The four registration steps of the product specification, in order. */
type Registration =
  | { step: 'register-email' }
  | { step: 'verify-email' }
  | { step: 'register-phone'; registrationToken: string }
  | { step: 'verify-phone'; registrationToken: string; phone: string };

const TOTAL_STEPS = 4;

/** Under the first step: the way to the login page. */
function LoginFooter() {
  return (
    <>
      Already have an account?{' '}
      <Link to={paths.login} className="font-semibold text-brand-700 hover:underline">
        Log in
      </Link>
    </>
  );
}

export default function RegisterPage() {
  const [searchParams] = useSearchParams();
  const [registration, setRegistration] = useState<Registration>({ step: 'register-email' });
  // Kept outside the steps so "Change email" comes back to what was typed.
  const [email, setEmail] = useState('');
  const [referralCode, setReferralCode] = useState(() => searchParams.get('ref')?.trim() ?? '');

  // The e-mail code step follows every sent e-mail: its code is fetched while the visitor types.
  useEffect(() => onFirstInput(() => void VerifyEmailStep.preload()), []);

  const reachedPhoneSteps = registration.step !== 'register-email';
  useEffect(() => {
    if (!reachedPhoneSteps) return;
    void loadPhoneNumberStep();
    void loadVerifyPhoneStep();
  }, [reachedPhoneSteps]);

  switch (registration.step) {
    case 'register-email':
      return (
        <AuthCard
          title="Register Your Account"
          subtitle="Create your OffZero account with your email address. It takes about two minutes."
          step={{ current: 1, total: TOTAL_STEPS, label: 'Email' }}
          footer={<LoginFooter />}
        >
          <title>Register — OffZero</title>
          <RegisterEmailStep
            defaultEmail={email}
            defaultReferralCode={referralCode}
            onCodeSent={(sentTo, code) => {
              setEmail(sentTo);
              setReferralCode(code);
              setRegistration({ step: 'verify-email' });
            }}
          />
        </AuthCard>
      );
    case 'verify-email':
      return (
        <AuthCard
          title="Verify your email"
          subtitle={
            <>
              Enter the 6-digit code we sent to{' '}
              <strong className="font-semibold text-ink-900">{email}</strong>. It is valid for 10 minutes.
            </>
          }
          step={{ current: 2, total: TOTAL_STEPS, label: 'Email code' }}
        >
          <title>Verify your email — OffZero</title>
          <VerifyEmailStep
            email={email}
            referralCode={referralCode}
            onVerified={(registrationToken) => setRegistration({ step: 'register-phone', registrationToken })}
            onChangeEmail={() => setRegistration({ step: 'register-email' })}
          />
        </AuthCard>
      );
    case 'register-phone':
      return (
        <AuthCard
          title="Add your phone number"
          subtitle="Your email is verified. We also verify a mobile number to protect your account."
          step={{ current: 3, total: TOTAL_STEPS, label: 'Phone' }}
        >
          <title>Add your phone number — OffZero</title>
          <Suspense fallback={<StepLoading />}>
            <PhoneNumberStep
              email={email}
              registrationToken={registration.registrationToken}
              onCodeSent={(phone) =>
                setRegistration({
                  step: 'verify-phone',
                  registrationToken: registration.registrationToken,
                  phone,
                })
              }
            />
          </Suspense>
        </AuthCard>
      );
    case 'verify-phone':
      return (
        <AuthCard
          title="Verify your phone"
          subtitle={
            <>
              Enter the 6-digit code we sent by text message to{' '}
              <strong className="font-semibold whitespace-nowrap text-ink-900">
                <PhoneNumberDisplay phone={registration.phone} />
              </strong>
              .
            </>
          }
          step={{ current: 4, total: TOTAL_STEPS, label: 'Phone code' }}
        >
          <title>Verify your phone — OffZero</title>
          <Suspense fallback={<StepLoading />}>
            <VerifyPhoneStep
              email={email}
              phone={registration.phone}
              registrationToken={registration.registrationToken}
              submitLabel="Verify and finish"
              onChangePhone={() =>
                setRegistration({ step: 'register-phone', registrationToken: registration.registrationToken })
              }
            />
          </Suspense>
        </AuthCard>
      );
  }
}
