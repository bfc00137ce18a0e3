import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ARRIVAL_TIMING, type FullGlobalSettings } from '@offzero/shared/api/global-settings';
import { jsonResponse, renderWithProviders } from '../../../test/test-utils';
import { stubAdminFetch } from '../../../test/admin-fetch';
import SettingsPage from './settings-page';

const settings: FullGlobalSettings = {
  order: { platform_fees: 1.5, min_order_size: 20, max_order_size: 10_000, order_session_timeout: 900 },
  paypal: { is_active: true },
  zelle: { is_active: true, payment_address: 'payments@offzero.example', bank_charges: 0 },
  ach: {
    is_active: true,
    account_holder: 'OffZero LLC',
    account_number: '000123456789',
    bank_address: 'First Demo Bank',
    routing_number: '021000021',
    bank_charges: 1,
  },
  wire: {
    is_active: false,
    account_holder: '',
    account_number: '',
    bank_address: '',
    swift_code: '',
    bank_charges: 25,
  },
  instant: { is_active: true, bank_charges: 0.5, max_payout: 25_000 },
  lightning: {
    is_active: true,
    max_order_sats: 5_000_000,
    max_payout_sats: 5_000_000,
    daily_payout_sats: 50_000_000,
  },
  referral: { reward: 20, trades_eligible: 3 },
  arrival: { ...DEFAULT_ARRIVAL_TIMING },
};

let putAnswer: () => Response;

const mockedFetch = stubAdminFetch(async (url, init) => {
  if (url === '/api/admin/settings' && (init?.method ?? 'GET') === 'GET') return jsonResponse({ settings });
  if (url === '/api/admin/settings' && init?.method === 'PUT') return putAnswer();
  return jsonResponse({ message: `unexpected ${url}` }, 500);
});

const puts = () => mockedFetch().mock.calls.filter(([, init]) => init?.method === 'PUT');

describe('the settings editor', () => {
  it('shows each mistake next to its field and sends nothing', async () => {
    const user = userEvent.setup();
    renderWithProviders(<SettingsPage />);
    const fee = await screen.findByLabelText('Platform fee (%)');
    await user.clear(fee);
    await user.type(fee, '-1');
    const min = screen.getByLabelText('Minimum order (USD)');
    await user.clear(min);
    await user.type(min, '20000');
    // Turning wire on without its details is refused too.
    await user.click(within(screen.getByTestId('settings-wire')).getByRole('switch'));
    await user.click(screen.getByRole('button', { name: 'Save settings' }));

    expect(await screen.findByText('Percentages cannot be negative.')).toBeInTheDocument();
    expect(screen.getByText('The minimum order must be below the maximum.')).toBeInTheDocument();
    expect(screen.getByText('Wire needs the SWIFT code.')).toBeInTheDocument();
    expect(fee).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByTestId('settings-status')).toHaveTextContent(
      'Some fields need attention; nothing was saved.',
    );
    expect(puts()).toHaveLength(0);
    await waitFor(() => expect(fee).toHaveFocus());
  });

  it('saves valid settings and shows the server’s message', async () => {
    const user = userEvent.setup();
    putAnswer = () =>
      jsonResponse({
        message: 'Settings saved. New quotes use them now.',
        settings: { ...settings, order: { ...settings.order, platform_fees: 2 } },
      });
    renderWithProviders(<SettingsPage />);
    const save = await screen.findByRole('button', { name: 'Save settings' });
    expect(save).toBeDisabled();
    const fee = screen.getByLabelText('Platform fee (%)');
    await user.clear(fee);
    await user.type(fee, '2');
    expect(screen.getByTestId('settings-status')).toHaveTextContent('You have unsaved changes.');
    await user.click(save);

    expect(await screen.findByText('Settings saved. New quotes use them now.')).toBeInTheDocument();
    expect(puts()).toHaveLength(1);
    const [, init] = puts()[0]!;
    expect(init?.headers).toMatchObject({ 'X-CSRF-Token': 'csrf-1', 'Content-Type': 'application/json' });
    expect(JSON.parse(init?.body as string)).toEqual({
      ...settings,
      order: { ...settings.order, platform_fees: 2 },
    });
    expect(save).toBeDisabled();
  });

  it('puts the server’s field errors next to their fields', async () => {
    const user = userEvent.setup();
    putAnswer = () =>
      jsonResponse(
        {
          message: 'Check zelle.payment_address: Zelle needs the address customers pay to.',
          errors: { 'zelle.payment_address': 'Zelle needs the address customers pay to.' },
        },
        400,
      );
    renderWithProviders(<SettingsPage />);
    const charges = within(await screen.findByTestId('settings-zelle')).getByLabelText('Bank charges (USD)');
    await user.clear(charges);
    await user.type(charges, '0.5');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));

    const zelle = screen.getByTestId('settings-zelle');
    expect(await within(zelle).findByText('Zelle needs the address customers pay to.')).toBeInTheDocument();
    expect(screen.getByTestId('settings-status')).toHaveTextContent('Check zelle.payment_address');
  });

  it('takes a message away as soon as its field is edited, and Discard puts the saved values back', async () => {
    const user = userEvent.setup();
    renderWithProviders(<SettingsPage />);
    const fee = await screen.findByLabelText('Platform fee (%)');
    await user.clear(fee);
    await user.type(fee, '1.555');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Use at most 2 decimal places for a percentage.')).toBeInTheDocument();

    await user.type(fee, '{Backspace}');
    expect(screen.queryByText('Use at most 2 decimal places for a percentage.')).not.toBeInTheDocument();
    expect(fee).not.toHaveAttribute('aria-invalid');
    expect(screen.getByTestId('settings-status')).toHaveTextContent('You have unsaved changes.');

    await user.click(screen.getByRole('button', { name: 'Discard' }));
    expect(fee).toHaveValue('1.5');
    expect(screen.getByTestId('settings-status')).toHaveTextContent('All changes saved.');
    expect(puts()).toHaveLength(0);
  });

  it('edits the four-eyes threshold with the shared rules and sends it', async () => {
    const withThreshold = { ...settings, order: { ...settings.order, four_eyes_usd: 3000 } };
    mockedFetch().mockImplementation(async (url, init) => {
      if (url === '/api/admin/settings' && (init?.method ?? 'GET') === 'GET')
        return jsonResponse({ settings: withThreshold });
      return jsonResponse({ message: 'Settings saved. New quotes use them now.', settings: withThreshold });
    });
    const user = userEvent.setup();
    renderWithProviders(<SettingsPage />);
    const threshold = await screen.findByLabelText('Four-eyes threshold (USD)');
    expect(threshold).toHaveValue('3000');
    await user.clear(threshold);
    await user.type(threshold, '0');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Enter an amount above zero.')).toBeInTheDocument();
    expect(puts()).toHaveLength(0);

    await user.clear(threshold);
    await user.type(threshold, '5000');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(puts()).toHaveLength(1));
    const body = JSON.parse(puts()[0]![1]!.body as string) as FullGlobalSettings;
    expect(body.order.four_eyes_usd).toBe(5000);
  });

  it('edits each method’s arrival timing: required, sent trimmed', async () => {
    putAnswer = () => jsonResponse({ message: 'Settings saved. New quotes use them now.', settings });
    const user = userEvent.setup();
    renderWithProviders(<SettingsPage />);
    const panel = await screen.findByTestId('settings-arrival');
    const wire = within(panel).getByLabelText('Wire transfer');
    expect(wire).toHaveValue('Same or next business day.');
    await user.clear(wire);
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Say when an order paid by wire arrives.')).toBeInTheDocument();
    expect(puts()).toHaveLength(0);

    await user.type(wire, '  Next business day.  ');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(puts()).toHaveLength(1));
    const body = JSON.parse(puts()[0]![1]!.body as string) as FullGlobalSettings;
    expect(body.arrival).toEqual({ ...DEFAULT_ARRIVAL_TIMING, wire: 'Next business day.' });
  });
});
