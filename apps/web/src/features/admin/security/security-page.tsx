import { useState, type ReactNode } from 'react';
import { QRCodeSVG } from 'qrcode.react';
import { toast } from '../../../lib/toast';
import { errorMessage } from '../../../lib/api-client';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { PageLoadError } from '../../../components/ui/page';
import { useConfirmMfaEnrolment } from '../api/confirm-mfa-enrolment';
import { useMfaStatus } from '../api/get-mfa-status';
import { useStartMfaEnrolment } from '../api/start-mfa-enrolment';
import { AdminPageHeader, Panel } from '../components/blocks';

/**
 * Two-factor authentication of the signed-in admin (docs/design.md): scan the QR code (or type the
 * secret) into an authenticator app, then enter its first code. In production nothing else of the
 * back office answers until this is done.
 */
export default function SecurityPage({ passkeys }: { passkeys?: ReactNode }) {
  const status = useMfaStatus();
  return (
    <div className="space-y-6">
      <title>Security — OffZero back office</title>
      <AdminPageHeader
        title="Security"
        description="Two-factor authentication protects your back-office login with a code from an authenticator app, or with a passkey."
      />
      {status.error ? (
        <PageLoadError message={errorMessage(status.error)} onRetry={() => void status.refetch()} />
      ) : !status.data ? null : (status.data.totp ?? status.data.enrolled) ? (
        <Panel title="Two-factor authentication">
          <p className="text-sm text-slate-700">
            Two-factor authentication is on. Each login asks for a code from your authenticator app.
          </p>
        </Panel>
      ) : (
        <Enrolment required={status.data.required && !status.data.enrolled} />
      )}
      {/* A passkey can be the second factor instead of the app, and signs in on its own. */}
      {passkeys}
    </div>
  );
}

function Enrolment({ required }: { required: boolean }) {
  const start = useStartMfaEnrolment();
  const confirm = useConfirmMfaEnrolment();
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const enrolment = start.data;

  return (
    <Panel title="Set up two-factor authentication">
      {required && (
        <p
          role="alert"
          className="mb-4 rounded-xl bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-600/20"
        >
          Set up two-factor authentication first. The rest of the back office opens once it is on.
        </p>
      )}
      {!enrolment ? (
        <Button
          loading={start.isPending}
          onClick={() => start.mutate(undefined, { onError: (error) => toast.error(errorMessage(error)) })}
        >
          Set up
        </Button>
      ) : (
        <form
          noValidate
          className="space-y-4"
          onSubmit={(event) => {
            event.preventDefault();
            const trimmed = code.trim();
            if (!/^\d{6}$/.test(trimmed)) {
              setProblem('Enter the 6-digit code from your authenticator app.');
              return;
            }
            setProblem(null);
            confirm.mutate(trimmed, {
              onSuccess: (answer) => toast.success(answer.message),
              onError: (error) => setProblem(errorMessage(error)),
            });
          }}
        >
          <p className="text-sm text-slate-700">
            Scan this code with your authenticator app, or type the secret into it.
          </p>
          <div className="w-fit rounded-2xl bg-white p-3 ring-1 ring-slate-200">
            <QRCodeSVG
              value={enrolment.otpauthUrl}
              size={196}
              level="M"
              marginSize={1}
              role="img"
              aria-label="Authenticator QR code"
            />
          </div>
          <p className="text-sm text-slate-700">
            Secret:{' '}
            <code data-testid="mfa-secret" className="font-mono text-sm break-all text-ink-900">
              {enrolment.secret}
            </code>
          </p>
          <TextField
            label="Code from the app"
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            onChange={(event) => setCode(event.target.value)}
            error={problem}
          />
          <Button type="submit" loading={confirm.isPending}>
            Turn on
          </Button>
        </form>
      )}
    </Panel>
  );
}
