import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { AMOUNT_LETTERS_MESSAGE, AMOUNT_POINTS_MESSAGE, MAX_DECIMALS } from '../utils/quote-fields';
import { AmountField } from './amount-field';

function Field({ maxDecimals, initial = '' }: { maxDecimals: number; initial?: string }) {
  const [value, setValue] = useState(initial);
  return (
    <AmountField
      label="Amount"
      name="amount"
      value={value}
      onChange={setValue}
      maxDecimals={maxDecimals}
      placeholder="0"
      currency="BTC"
    />
  );
}

describe('AmountField, pasted amounts', () => {
  it('rounds a pasted bitcoin amount with extra decimals down to 6 and says so under the field', async () => {
    const user = userEvent.setup();
    render(<Field maxDecimals={MAX_DECIMALS.buyBtc} />);
    const field = screen.getByLabelText('Amount');
    await user.click(field);
    await user.paste('0.123456789');

    expect(field).toHaveValue('0.123456');
    expect(screen.getByText('Rounded down to 6 decimals.')).toBeInTheDocument();
    expect(field).not.toHaveAttribute('aria-invalid');
  });

  it('rounds pasted dollars down to the cent, never up', async () => {
    const user = userEvent.setup();
    render(<Field maxDecimals={MAX_DECIMALS.usd} />);
    const field = screen.getByLabelText('Amount');
    await user.click(field);
    await user.paste(' 100.129 ');

    expect(field).toHaveValue('100.12');
    expect(screen.getByText('Rounded down to 2 decimals.')).toBeInTheDocument();
  });

  it('refuses letters and several points with a message, keeping the amount already there', async () => {
    const user = userEvent.setup();
    render(<Field maxDecimals={MAX_DECIMALS.usd} initial="50" />);
    const field = screen.getByLabelText('Amount');
    await user.clear(field);
    await user.paste('12abc');
    expect(field).toHaveValue('');
    expect(screen.getByRole('alert')).toHaveTextContent(AMOUNT_LETTERS_MESSAGE);
    expect(field).toHaveAttribute('aria-invalid', 'true');

    await user.paste('1.2.3');
    expect(field).toHaveValue('');
    expect(screen.getByRole('alert')).toHaveTextContent(AMOUNT_POINTS_MESSAGE);

    // A good amount clears the message.
    await user.paste('75.5');
    expect(field).toHaveValue('75.5');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByText(/Rounded down/)).not.toBeInTheDocument();
  });
});
