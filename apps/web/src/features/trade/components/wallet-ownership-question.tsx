import { useId, useState, type ReactNode } from 'react';
import {
  needsTravelRuleRecord,
  walletOwnershipSchema,
  type WalletOwnership,
} from '@offzero/shared/api/limits';
import type { Cents } from '@offzero/shared/money/money';
import { TextField } from '../../../components/ui/text-field';

/**
 * The Travel Rule question of the confirmation step (docs/design.md): from $3,000 the customer says
 * whether the wallet is their own or names the exchange or institution that holds it. The flow keeps
 * the answer (`useWalletOwnership`), shows `question(…)` on its confirmation step, and sends
 * `answerFor(…)` with the order; below $3,000 nothing is shown, asked or sent.
 */

interface Draft {
  choice: 'own' | 'institution' | null;
  institution: string;
}

export type OwnershipAnswer =
  { ok: true; walletOwnership: WalletOwnership | undefined } | { ok: false; message: string };

export function useWalletOwnership() {
  const [draft, setDraft] = useState<Draft>({ choice: null, institution: '' });
  const [error, setError] = useState<string | null>(null);
  const change = (next: Draft) => {
    setDraft(next);
    setError(null);
  };

  /** The answer to send with an order of `valueCents`, checked with the server's own rules. */
  const answerFor = (valueCents: Cents): OwnershipAnswer => {
    if (!needsTravelRuleRecord(valueCents)) return { ok: true, walletOwnership: undefined };
    const candidate =
      draft.choice === 'own'
        ? { own: true }
        : draft.choice === 'institution'
          ? { own: false, institution: draft.institution }
          : undefined;
    const parsed = walletOwnershipSchema.safeParse(candidate);
    if (parsed.success) return { ok: true, walletOwnership: parsed.data };
    const message = parsed.error.issues[0]?.message ?? 'Tell us whether this wallet is your own.';
    setError(message);
    return { ok: false, message };
  };

  const question = (valueCents: Cents | null, side: 'buy' | 'sell'): ReactNode =>
    valueCents !== null && needsTravelRuleRecord(valueCents) ? (
      <WalletOwnershipQuestion draft={draft} onChange={change} error={error} side={side} />
    ) : null;

  return { answerFor, question };
}

function WalletOwnershipQuestion({
  draft,
  onChange,
  error,
  side,
}: {
  draft: Draft;
  onChange: (draft: Draft) => void;
  error: string | null;
  side: 'buy' | 'sell';
}) {
  const name = useId();
  const errorId = `${name}-error`;
  const option = (choice: 'own' | 'institution', label: string) => (
    <label className="flex cursor-pointer items-start gap-2.5 rounded-xl px-3 py-2.5 ring-1 ring-slate-200 has-checked:bg-brand-50 has-checked:ring-brand-300">
      <input
        type="radio"
        name={name}
        value={choice}
        checked={draft.choice === choice}
        onChange={() => onChange({ ...draft, choice })}
        className="mt-0.5 size-4 accent-brand-600"
      />
      <span className="text-sm text-ink-900">{label}</span>
    </label>
  );
  return (
    <fieldset
      data-testid="wallet-ownership"
      aria-describedby={error && draft.choice !== 'institution' ? errorId : undefined}
      className="space-y-2"
    >
      <legend className="text-sm font-semibold text-ink-900">Is this your own wallet?</legend>
      <p className="text-xs text-slate-500">
        {side === 'buy'
          ? 'For orders of $3,000 or more we record whose wallet receives the bitcoin.'
          : 'For orders of $3,000 or more we record whose wallet the bitcoin comes from.'}
      </p>
      <div className="grid grid-cols-1 gap-2">
        {option('own', 'Yes, it is my own wallet')}
        {option('institution', 'No, an exchange or institution holds it')}
      </div>
      {draft.choice === 'institution' && (
        <TextField
          label="Name of the exchange or institution"
          value={draft.institution}
          onChange={(event) => onChange({ ...draft, institution: event.target.value })}
          maxLength={200}
          autoComplete="off"
          error={error}
          data-autofocus
        />
      )}
      {error && draft.choice !== 'institution' && (
        <p id={errorId} role="alert" className="text-sm text-red-600">
          {error}
        </p>
      )}
    </fieldset>
  );
}
