import { useState } from 'react';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LimitsResponse } from '@offzero/shared/api/limits';
import type { Cents } from '@offzero/shared/money/money';
import { fakeSessionToken, jsonResponse, renderWithProviders } from '../../../test/test-utils';
import { clearSession, saveSessionToken } from '../../../lib/session-storage';
import { RemainingLimitNote } from './remaining-limit-note';
import { useWalletOwnership, type OwnershipAnswer } from './wallet-ownership-question';

const limits = (remaining: [number, number, number]): LimitsResponse => ({
  tier: 1,
  windows: [
    { window: '24h', limitUsd: 10_000, usedUsd: 10_000 - remaining[0], remainingUsd: remaining[0] },
    { window: '7d', limitUsd: 20_000, usedUsd: 20_000 - remaining[1], remainingUsd: remaining[1] },
    { window: '30d', limitUsd: 50_000, usedUsd: 50_000 - remaining[2], remainingUsd: remaining[2] },
  ],
});

let fetchMock: ReturnType<typeof vi.fn<(input: string) => Promise<Response>>>;

beforeEach(() => {
  fetchMock = vi.fn<(input: string) => Promise<Response>>(async () =>
    jsonResponse(limits([10_000, 20_000, 50_000])),
  );
  vi.stubGlobal('fetch', fetchMock);
  saveSessionToken(fakeSessionToken('ada'));
});

afterEach(() => {
  clearSession();
  vi.unstubAllGlobals();
});

describe('what is left at the quote step', () => {
  it('names the window with the least left, in the words of the server’s refusal', async () => {
    fetchMock.mockImplementation(async () => jsonResponse(limits([2_000, 5_000, 1_250.5])));
    renderWithProviders(<RemainingLimitNote />);
    expect(await screen.findByTestId('remaining-limit')).toHaveTextContent(
      'You can trade up to $1,250.50 more this month.',
    );
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/limits');
  });

  it('says when a limit is reached', async () => {
    fetchMock.mockImplementation(async () => jsonResponse(limits([0, 5_000, 9_000])));
    renderWithProviders(<RemainingLimitNote />);
    expect(await screen.findByTestId('remaining-limit')).toHaveTextContent(
      'You have reached your 24-hour limit.',
    );
  });

  it('shows nothing to a visitor and asks nothing', async () => {
    clearSession();
    renderWithProviders(<RemainingLimitNote />);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByTestId('remaining-limit')).not.toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

/** The confirmation step's part: the question for an order of `valueCents`, and a Pay that asks it. */
function Harness({
  valueCents,
  onAnswer,
}: {
  valueCents: Cents;
  onAnswer: (answer: OwnershipAnswer) => void;
}) {
  const ownership = useWalletOwnership();
  const [, rerender] = useState(0);
  return (
    <div>
      {ownership.question(valueCents, 'buy')}
      <button
        type="button"
        onClick={() => {
          onAnswer(ownership.answerFor(valueCents));
          rerender((n) => n + 1);
        }}
      >
        Pay
      </button>
    </div>
  );
}

describe('the wallet-ownership question', () => {
  it('is neither shown nor sent below $3,000', async () => {
    const answers: OwnershipAnswer[] = [];
    const user = userEvent.setup();
    renderWithProviders(<Harness valueCents={299_999n} onAnswer={(a) => answers.push(a)} />);
    expect(screen.queryByText('Is this your own wallet?')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Pay' }));
    expect(answers).toEqual([{ ok: true, walletOwnership: undefined }]);
  });

  it('from $3,000 needs an answer: own, or the name of the exchange or institution', async () => {
    const answers: OwnershipAnswer[] = [];
    const user = userEvent.setup();
    renderWithProviders(<Harness valueCents={300_000n} onAnswer={(a) => answers.push(a)} />);
    expect(screen.getByText('Is this your own wallet?')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Pay' }));
    expect(answers.at(-1)).toEqual({ ok: false, message: 'Tell us whether this wallet is your own.' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Tell us whether this wallet is your own.');

    await user.click(screen.getByLabelText('No, an exchange or institution holds it'));
    await user.type(screen.getByLabelText('Name of the exchange or institution'), '   ');
    await user.click(screen.getByRole('button', { name: 'Pay' }));
    expect(answers.at(-1)).toEqual({
      ok: false,
      message: 'Name the exchange or institution that holds this wallet.',
    });

    await user.type(screen.getByLabelText('Name of the exchange or institution'), 'Kraken ');
    await user.click(screen.getByRole('button', { name: 'Pay' }));
    expect(answers.at(-1)).toEqual({ ok: true, walletOwnership: { own: false, institution: 'Kraken' } });

    await user.click(screen.getByLabelText('Yes, it is my own wallet'));
    await user.click(screen.getByRole('button', { name: 'Pay' }));
    await waitFor(() => expect(answers.at(-1)).toEqual({ ok: true, walletOwnership: { own: true } }));
    expect(screen.queryByLabelText('Name of the exchange or institution')).not.toBeInTheDocument();
  });
});
