import { useEffect, useRef, useState } from 'react';
import { Spinner } from '../../../components/ui/spinner';

// Sumsub's Web SDK (production identity verification), loaded from Sumsub when first needed. The page's
// security policy allows this one script (apps/server/src/http/security-headers.ts).
export const SUMSUB_SDK_URL = 'https://static.sumsub.com/idensic/static/sns-websdk-builder.js';
export const SUMSUB_CONTAINER_ID = 'sumsub-websdk-container';

interface SnsWebSdkInstance {
  launch(selector: string): void;
  destroy?: () => void;
}
interface SnsWebSdkBuilder {
  withConf(conf: { lang: string }): SnsWebSdkBuilder;
  withOptions(options: Record<string, unknown>): SnsWebSdkBuilder;
  on(event: string, handler: (...args: never[]) => void): SnsWebSdkBuilder;
  build(): SnsWebSdkInstance;
}
interface SnsWebSdk {
  init(accessToken: string, expirationHandler: () => Promise<string>): SnsWebSdkBuilder;
}

declare global {
  interface Window {
    snsWebSdk?: SnsWebSdk;
  }
}

let sdkLoading: Promise<SnsWebSdk> | null = null;

function loadSumsubSdk(): Promise<SnsWebSdk> {
  if (window.snsWebSdk) return Promise.resolve(window.snsWebSdk);
  sdkLoading ??= new Promise<SnsWebSdk>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = SUMSUB_SDK_URL;
    script.async = true;
    script.onload = () =>
      window.snsWebSdk ? resolve(window.snsWebSdk) : reject(new Error('Sumsub SDK did not register'));
    script.onerror = () => reject(new Error('Could not load the Sumsub SDK'));
    document.head.appendChild(script);
  }).catch((error: unknown) => {
    sdkLoading = null;
    throw error;
  });
  return sdkLoading;
}

/** Sumsub's error events name an expired or invalid token in a few ways across SDK versions. */
function isInvalidTokenError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, error: name } = error as { code?: unknown; error?: unknown };
  return [code, name].some((value) => typeof value === 'string' && /invalid[-_ ]?token|expired/i.test(value));
}

export interface ApplicantStatus {
  reviewStatus?: string;
  [key: string]: unknown;
}

/**
 * Runs Sumsub's widget in `#sumsub-websdk-container`. Its events are only hints: on
 * "submitted" and "review completed" the owner asks the server, which asks Sumsub itself.
 */
export function SumsubWidget({
  token,
  getNewToken,
  onSubmitted,
  onReviewCompleted,
}: {
  token: string;
  /** Fetches a new access token (the widget calls it when its token expires). */
  getNewToken: () => Promise<string>;
  onSubmitted: () => void;
  onReviewCompleted: (payload: ApplicantStatus) => void;
}) {
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  // The latest callbacks, so a parent re-render does not relaunch the widget.
  const handlers = useRef({ getNewToken, onSubmitted, onReviewCompleted });
  useEffect(() => {
    handlers.current = { getNewToken, onSubmitted, onReviewCompleted };
  });

  useEffect(() => {
    let cancelled = false;
    let instance: SnsWebSdkInstance | null = null;
    const launch = (sdk: SnsWebSdk, accessToken: string) => {
      instance?.destroy?.();
      instance = sdk
        .init(accessToken, () => handlers.current.getNewToken())
        .withConf({ lang: 'en' })
        .withOptions({ addViewportTag: false, adaptIframeHeight: true })
        .on('idCheck.onApplicantSubmitted', () => handlers.current.onSubmitted())
        .on('idCheck.onApplicantStatusChanged', (payload: ApplicantStatus) => {
          if (payload?.reviewStatus === 'completed') handlers.current.onReviewCompleted(payload);
        })
        .on('idCheck.onError', (error: unknown) => {
          console.error('Identity verification widget error', error);
          // An invalid or expired token: the expiry handler fetches a new one and the widget restarts.
          if (!isInvalidTokenError(error)) return;
          handlers.current
            .getNewToken()
            .then((fresh) => {
              if (!cancelled) launch(sdk, fresh);
            })
            .catch((failure: unknown) => console.error('Could not renew the verification token', failure));
        })
        .build();
      instance.launch(`#${SUMSUB_CONTAINER_ID}`);
    };

    loadSumsubSdk()
      .then((sdk) => {
        if (cancelled) return;
        launch(sdk, token);
        setState('ready');
      })
      .catch((error: unknown) => {
        console.error('Could not start identity verification', error);
        if (!cancelled) setState('failed');
      });
    return () => {
      cancelled = true;
      instance?.destroy?.();
    };
  }, [token]);

  return (
    <div>
      {state === 'loading' && (
        <p role="status" className="flex items-center justify-center gap-2 py-10 text-sm text-slate-500">
          <Spinner /> Loading identity verification…
        </p>
      )}
      {state === 'failed' && (
        <p role="alert" className="py-10 text-center text-sm text-slate-600">
          Identity verification could not be loaded. Check your connection and try again.
        </p>
      )}
      <div id={SUMSUB_CONTAINER_ID} className="min-h-[420px]" hidden={state === 'failed'} />
    </div>
  );
}
