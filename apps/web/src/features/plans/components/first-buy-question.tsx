import { useState, type ReactNode } from 'react';
import type { ScamCheck } from '@offzero/shared/places/scam-shield';
import { hasErrorCode } from '../../../lib/api-client';
import { ScamGuidanceStep, ScamQuestionStep } from '../../../components/scam-shield-steps';

type Step = { step: 'form' } | { step: 'question' } | { step: 'guidance' };

/**
 * The scam shield's first-buy question for buys set up ahead of time (a recurring plan, buying with
 * every deposit), asked as the buy flow asks it: when the server answers that a new customer must
 * answer it (SCAM_CHECK_REQUIRED), the same screens, then the same call again with the answer; "someone
 * asked me" shows the guidance (docs/design.md, "Places and the scam shield").
 */
export function useFirstBuyQuestion(resend: (answer: ScamCheck) => void) {
  const [state, setState] = useState<Step>({ step: 'form' });
  return {
    /** True when the error was the shield's: the question or the guidance is shown instead. */
    handled(error: unknown): boolean {
      if (hasErrorCode(error, 'SCAM_CHECK_REQUIRED')) {
        setState({ step: 'question' });
        return true;
      }
      if (hasErrorCode(error, 'SCAM_SUSPECTED')) {
        setState({ step: 'guidance' });
        return true;
      }
      return false;
    },
    /** The question or the guidance when one is due, else the form. */
    render(form: ReactNode, sending: boolean): ReactNode {
      if (state.step === 'question')
        return (
          <ScamQuestionStep
            sending={sending}
            onBack={() => setState({ step: 'form' })}
            onAnswer={(answer) => {
              setState({ step: 'form' });
              resend(answer);
            }}
          />
        );
      if (state.step === 'guidance') return <ScamGuidanceStep onDone={() => setState({ step: 'form' })} />;
      return form;
    },
  };
}
