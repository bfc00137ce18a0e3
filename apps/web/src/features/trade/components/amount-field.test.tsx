import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { UNCLEAR_AMOUNT_MESSAGE } from '@offzero/shared/money/money';
import { AMOUNT_LETTERS_MESSAGE, AMOUNT_POINTS_MESSAGE, MAX_DECIMALS } from '../utils/quote-fields';
import { AmountField } from './amount-field';

function Field({ maxDecimals, initial = '' }: { maxDecimals: number; initial?: string }) {
  const [value, setValue] = useState(initial);
  const unit = maxDecimals === MAX_DECIMALS.usd ? 'usd' : 'btc';
  return (
    <>
      <AmountField
        label="Amount"
        name="amount"
        unit={unit}
        value={value}
        onChange={setValue}
        maxDecimals={maxDecimals}
        placeholder="0"
        currency={unit.toUpperCase()}
      />
      <button type="button">Elsewhere</button>
    </>
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
    await user.paste(' 100.1299 ');

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

describe('AmountField, money as customers write it', () => {
  it('keeps thousands separators and a dollar sign as typed, with no message', async () => {
    const user = userEvent.setup();
    render(<Field maxDecimals={MAX_DECIMALS.usd} />);
    const field = screen.getByLabelText('Amount');
    await user.type(field, '$1,000.50');
    expect(field).toHaveValue('$1,000.50');
    await user.click(screen.getByRole('button', { name: 'Elsewhere' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(field).not.toHaveAttribute('aria-invalid');
  });

  it('says how to write an amount that could mean two, once the customer leaves the field', async () => {
    const user = userEvent.setup();
    render(<Field maxDecimals={MAX_DECIMALS.usd} />);
    const field = screen.getByLabelText('Amount');
    await user.type(field, '1,00');
    // Still typing: '1,00' may become '1,000'.
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Elsewhere' }));
    expect(field).toHaveValue('1,00');
    expect(screen.getByRole('alert')).toHaveTextContent(UNCLEAR_AMOUNT_MESSAGE);
    expect(field).toHaveAttribute('aria-invalid', 'true');
  });

  it('refuses a decimal comma after a point at once', async () => {
    const user = userEvent.setup();
    render(<Field maxDecimals={MAX_DECIMALS.usd} />);
    await user.type(screen.getByLabelText('Amount'), '1.000,50');
    expect(screen.getByRole('alert')).toHaveTextContent(UNCLEAR_AMOUNT_MESSAGE);
  });
});
