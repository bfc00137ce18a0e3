import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DestinationKindNote } from './destination-kind-note';

describe('the kind of the destination typed for a buy', () => {
  it('names a Lightning invoice and shows the routing-fee budget before paying', () => {
    render(<DestinationKindNote kind="invoice" amountSats={250_000n} feeBudgetSats={1_250n} />);
    expect(screen.getByTestId('destination-kind')).toHaveTextContent('Lightning invoice');
    expect(screen.getByTestId('routing-fee-budget')).toHaveTextContent(
      'Routing fee budget: up to 1,250 sats, paid by OffZero: you receive 0.002500 BTC in full.',
    );
  });

  it('says so when Lightning cannot pay this buy, and shows no budget for a bitcoin address', () => {
    const { rerender } = render(
      <DestinationKindNote kind="lightning-address" amountSats={250_000n} feeBudgetSats={undefined} />,
    );
    expect(screen.getByTestId('destination-kind')).toHaveTextContent('Lightning address');
    expect(screen.getByText(/Lightning cannot pay out this buy right now/)).toBeInTheDocument();
    rerender(<DestinationKindNote kind="bitcoin-address" amountSats={250_000n} feeBudgetSats={1_250n} />);
    expect(screen.getByTestId('destination-kind')).toHaveTextContent('Bitcoin address');
    expect(screen.queryByTestId('routing-fee-budget')).not.toBeInTheDocument();
  });
});
