import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { deferredComponent } from '../../lib/deferred-component';
import { onFirstInput } from '../../lib/first-input';
import { AuthCard } from './components/auth-card';
import { StepLoading } from './components/step-loading';
import { sessionHasEnded } from '../../lib/session-return';

// The steps' code (validation schemas, form state) loads once the prerendered page is interactive.
const LoginEmailStep = deferredComponent(
  async () => (await import('./components/login-email-step')).LoginEmailStep,
  <StepLoading />,
);
const LoginCodeStep = deferredComponent(
  async () => (await import('./components/login-code-step')).LoginCodeStep,
  <StepLoading />,
);
const LoginMfaStep = deferredComponent(
  async () => (await import('./components/login-mfa-step')).LoginMfaStep,
  <StepLoading />,
);

/** Login: the e-mail address, then the code sent to it ('OTP Verification'). */
export default function LoginPage() {
  const location = useLocation();
  const navigate = useNavigate();
  // The register page hands over the address of an existing account.
  const handedOver = (location.state as { email?: unknown } | null)?.email;
  // An admin with two-factor authentication comes back here for the second step.
  const mfaToken = (location.state as { mfaToken?: unknown } | null)?.mfaToken;
  const [email, setEmail] = useState(typeof handedOver === 'string' ? handedOver : '');
  const [step, setStep] = useState<'login-email' | 'login-otp'>('login-email');
  // The code step follows every sent e-mail: its code is fetched while the visitor types their address.
  useEffect(() => onFirstInput(() => void LoginCodeStep.preload()), []);

  if (typeof mfaToken === 'string') {
    return (
      <AuthCard
        title="Two-factor authentication"
        subtitle="Enter the 6-digit code from your authenticator app, or use your passkey."
      >
        <title>Two-factor authentication — OffZero</title>
        <LoginMfaStep
          mfaToken={mfaToken}
          onRestart={() => {
            setStep('login-email');
            void navigate(paths.login, { replace: true, state: null });
          }}
        />
      </AuthCard>
    );
  }

  if (step === 'login-otp') {
    return (
      <AuthCard
        title="OTP Verification"
        subtitle={
          <>
            Enter the 6-digit code we sent to <strong className="font-semibold text-ink-900">{email}</strong>.
          </>
        }
      >
        <title>OTP Verification — OffZero</title>
        <LoginCodeStep email={email} onChangeEmail={() => setStep('login-email')} />
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Log in to OffZero"
      subtitle="Enter your email and we will send you a one-time code. No password needed."
      footer={
        <>
          New to OffZero?{' '}
          <Link to={paths.register} className="font-semibold text-brand-700 hover:underline">
            Create an account
          </Link>
        </>
      }
    >
      <title>Log in — OffZero</title>
      {sessionHasEnded(location.search) && (
        <p
          role="status"
          className="mb-4 rounded-xl bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200"
        >
          Your session ended. Log in again and we take you back to where you were.
        </p>
      )}
      <LoginEmailStep
        defaultEmail={email}
        onCodeSent={(sentTo) => {
          setEmail(sentTo);
          setStep('login-otp');
        }}
      />
    </AuthCard>
  );
}
