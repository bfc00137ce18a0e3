import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '../../../lib/toast';
import { OTP_MESSAGE } from '@offzero/shared/api/accounts';
import { renderWithProviders } from '../../../test/test-utils';
import { CODE_FORMAT_MESSAGE } from '../validation';
import { smsCodeFormSchema } from '../phone-validation';
import { CodeEntryForm } from './code-entry-form';

beforeEach(() => {
  vi.spyOn(toast, 'error');
});

afterEach(() => {
  vi.restoreAllMocks();
});

function renderForm(props: { phone?: string; sentByUs?: boolean } = {}) {
  const onSubmitCode = vi.fn();
  renderWithProviders(
    <CodeEntryForm
      recipient="ada@example.com"
      submitLabel="Verify email"
      backLabel="Change email"
      onBack={vi.fn()}
      pending={false}
      schema={props.phone === undefined ? undefined : smsCodeFormSchema(props.phone)}
      onSubmitCode={onSubmitCode}
      onResend={() => Promise.resolve(true)}
      sentByUs={props.sentByUs}
    />,
  );
  return { onSubmitCode, user: userEvent.setup() };
}

describe('CodeEntryForm', () => {
  it('points to the demo outbox for a code OffZero sent', () => {
    renderForm();
    expect(screen.getByRole('link', { name: /demo outbox/ })).toHaveAttribute(
      'href',
      '/dev/outbox?to=ada%40example.com',
    );
  });

  it('does not point to the outbox for a code it never sent (an authenticator app’s)', () => {
    renderForm({ sentByUs: false });
    expect(screen.queryByRole('link', { name: /demo outbox/ })).not.toBeInTheDocument();
  });

  it('asks for the code when it is empty, then for six digits', async () => {
    const { user, onSubmitCode } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Verify email' }));
    expect(await screen.findByText(OTP_MESSAGE)).toBeInTheDocument();
    expect(toast.error).toHaveBeenCalledWith(OTP_MESSAGE);

    await user.type(screen.getByLabelText('Verification code'), '123');
    expect(screen.queryByText(OTP_MESSAGE)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Verify email' }));
    expect(await screen.findByText(CODE_FORMAT_MESSAGE)).toBeInTheDocument();
    expect(onSubmitCode).not.toHaveBeenCalled();
  });

  it('sends six digits (letters never reach the field)', async () => {
    const { user, onSubmitCode } = renderForm();
    await user.type(screen.getByLabelText('Verification code'), '12a3456');
    await user.click(screen.getByRole('button', { name: 'Verify email' }));
    await vi.waitFor(() => expect(onSubmitCode).toHaveBeenCalledWith('123456'));
  });

  it('on the SMS step reports a bad phone number as a missing code', async () => {
    const { user, onSubmitCode } = renderForm({ phone: '+1555' });
    await user.type(screen.getByLabelText('Verification code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify email' }));
    expect(await screen.findByText(OTP_MESSAGE)).toBeInTheDocument();
    expect(onSubmitCode).not.toHaveBeenCalled();
  });
});
