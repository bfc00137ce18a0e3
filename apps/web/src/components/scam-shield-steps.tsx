import { useId, useState } from 'react';
import { SCAM_GUIDANCE_LINES, type ScamCheck } from '@offzero/shared/places/scam-shield';
import { Button } from './ui/button';

/**
 * The scam shield's screens in the buy flow (docs/design.md, "Places and the scam shield"): the
 * question a new customer answers before their first buy (asked when the server says it is needed),
 * and the guidance shown instead of an order when someone asked them to buy.
 */

type Answer = 'yes' | 'no' | null;

function YesNo({
  legend,
  hint,
  value,
  onChange,
}: {
  legend: string;
  hint: string;
  value: Answer;
  onChange: (value: Answer) => void;
}) {
  const name = useId();
  const option = (choice: 'yes' | 'no', label: string) => (
    <label className="flex cursor-pointer items-center gap-2.5 rounded-xl px-3 py-2.5 ring-1 ring-slate-200 has-checked:bg-brand-50 has-checked:ring-brand-300">
      <input
        type="radio"
        name={name}
        value={choice}
        checked={value === choice}
        onChange={() => onChange(choice)}
        className="size-4 accent-brand-600"
      />
      <span className="text-sm text-ink-900">{label}</span>
    </label>
  );
  return (
    <fieldset className="min-w-0 space-y-2">
      <legend className="text-sm font-semibold text-ink-900">{legend}</legend>
      <p className="text-xs text-slate-500">{hint}</p>
      <div className="grid grid-cols-2 gap-2">
        {option('yes', 'Yes')}
        {option('no', 'No')}
      </div>
    </fieldset>
  );
}

/** Before the first buy: is the wallet theirs, and did anyone ask them to buy. */
export function ScamQuestionStep({
  onAnswer,
  onBack,
  sending,
}: {
  onAnswer: (answer: ScamCheck) => void;
  onBack: () => void;
  sending: boolean;
}) {
  const [own, setOwn] = useState<Answer>(null);
  const [asked, setAsked] = useState<Answer>(null);
  const [error, setError] = useState<string | null>(null);
  const send = () => {
    if (own === null || asked === null) return setError('Answer both questions to continue.');
    setError(null);
    onAnswer({ ownWallet: own === 'yes', someoneAskedMe: asked === 'yes' });
  };
  return (
    <section data-testid="scam-question" aria-labelledby="scam-question-title" className="min-w-0 space-y-4">
      <h2 id="scam-question-title" className="text-lg font-semibold text-ink-900">
        Before your first purchase
      </h2>
      <p className="text-sm text-slate-600">
        Scammers tell people to buy bitcoin and send it to an address they give. Bitcoin sent cannot be taken
        back.
      </p>
      <YesNo
        legend="Is the wallet you are buying for your own?"
        hint="Only you control it: no one else gave you the address."
        value={own}
        onChange={setOwn}
      />
      <YesNo
        legend="Did anyone ask you to buy bitcoin or tell you where to send it?"
        hint="For example someone from a bank, the government, tech support, a job or a new friend online."
        value={asked}
        onChange={setAsked}
      />
      {error && (
        <p role="alert" className="text-sm text-red-600">
          {error}
        </p>
      )}
      <div className="grid grid-cols-[auto_1fr] gap-3">
        <Button variant="secondary" onClick={onBack}>
          Back
        </Button>
        <Button fullWidth onClick={send} loading={sending}>
          Continue
        </Button>
      </div>
    </section>
  );
}

/** Someone asked the customer to buy: no order, and who to call. */
export function ScamGuidanceStep({ onDone }: { onDone: () => void }) {
  return (
    <section
      data-testid="scam-guidance"
      aria-labelledby="scam-guidance-title"
      className="space-y-4 rounded-2xl bg-red-50 p-4 ring-1 ring-red-200"
    >
      <h2 id="scam-guidance-title" className="text-lg font-semibold text-red-900">
        Stop: this looks like a scam
      </h2>
      <p className="text-sm text-red-900">
        We did not place this order. Someone asking you to buy bitcoin is the most common scam.
      </p>
      <ul className="list-disc space-y-1 pl-5 text-sm text-red-900">
        {SCAM_GUIDANCE_LINES.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <p className="text-sm text-red-900">
        Report it:{' '}
        <a className="font-semibold underline" href="https://www.ic3.gov" target="_blank" rel="noreferrer">
          FBI IC3 (ic3.gov)
        </a>{' '}
        and{' '}
        <a
          className="font-semibold underline"
          href="https://reportfraud.ftc.gov"
          target="_blank"
          rel="noreferrer"
        >
          FTC (reportfraud.ftc.gov)
        </a>
        .
      </p>
      <Button variant="secondary" onClick={onDone}>
        Back to start
      </Button>
    </section>
  );
}
