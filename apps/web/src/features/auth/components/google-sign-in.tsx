import { useEffect, useRef, useState } from 'react';
import { toast } from '../../../lib/toast';
import { useAppConfig } from '../../../lib/app-config';
import { ApiError } from '../../../lib/api-client';
import { useGoogleLogin } from '../api/login';
import { useCompleteSignIn } from '../use-complete-sign-in';

// Google Identity Services (https://developers.google.com/identity/gsi/web): the script renders
// Google's own button and hands back an ID token ("credential"), which the server verifies.
const GSI_SCRIPT_URL = 'https://accounts.google.com/gsi/client';
const LOGIN_FAILED = 'Login failed!';

interface GoogleCredentialResponse {
  credential?: string;
}

interface GoogleAccountsId {
  initialize(options: {
    client_id: string;
    callback: (response: GoogleCredentialResponse) => void;
    ux_mode?: 'popup' | 'redirect';
    context?: 'signin' | 'signup' | 'use';
  }): void;
  renderButton(
    parent: HTMLElement,
    options: {
      type?: 'standard' | 'icon';
      theme?: 'outline' | 'filled_blue' | 'filled_black';
      size?: 'large' | 'medium' | 'small';
      text?: 'signin_with' | 'signup_with' | 'continue_with' | 'signin';
      shape?: 'rectangular' | 'pill' | 'circle' | 'square';
      logo_alignment?: 'left' | 'center';
      width?: number;
    },
  ): void;
}

declare global {
  interface Window {
    google?: { accounts: { id: GoogleAccountsId } };
  }
}

let scriptLoading: Promise<GoogleAccountsId> | null = null;

function loadGoogleIdentityServices(): Promise<GoogleAccountsId> {
  scriptLoading ??= new Promise<GoogleAccountsId>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = GSI_SCRIPT_URL;
    script.async = true;
    script.defer = true;
    script.onload = () =>
      window.google?.accounts.id
        ? resolve(window.google.accounts.id)
        : reject(new Error('Google sign-in script loaded without its API'));
    script.onerror = () => {
      scriptLoading = null; // let a later visit try again
      script.remove();
      reject(new Error('Google sign-in script failed to load'));
    };
    document.head.appendChild(script);
  });
  return scriptLoading;
}

/** "or" and Google's button, when the server has a Google client id configured; nothing otherwise. */
export function GoogleSignIn() {
  const { googleClientId } = useAppConfig();
  if (!googleClientId) return null;
  return (
    <div>
      <div className="flex items-center gap-3 text-xs font-medium tracking-wider text-slate-500 uppercase">
        <span className="h-px flex-1 bg-slate-200" />
        or
        <span className="h-px flex-1 bg-slate-200" />
      </div>
      <GoogleButton clientId={googleClientId} />
    </div>
  );
}

function GoogleButton({ clientId }: { clientId: string }) {
  const containerRef = useRef<HTMLDivElement>(null);
  const [unavailable, setUnavailable] = useState(false);
  const googleLogin = useGoogleLogin();
  const completeSignIn = useCompleteSignIn();

  // Google calls back outside React; it must always reach the latest handlers.
  const onCredential = useRef<(credential: string | undefined) => void>(() => undefined);
  useEffect(() => {
    onCredential.current = (credential) => {
      if (!credential) {
        toast.error(LOGIN_FAILED);
        return;
      }
      googleLogin.mutate(credential, {
        onSuccess: (session) => {
          toast.success(session.message);
          completeSignIn(session);
        },
        onError: (error) =>
          // A refused token says only "Login failed!"; a disabled or differently linked account says why.
          toast.error(
            error instanceof ApiError && error.code !== 'UNAUTHENTICATED' && error.code !== 'NETWORK_ERROR'
              ? error.message
              : LOGIN_FAILED,
          ),
      });
    };
  });

  useEffect(() => {
    let cancelled = false;
    loadGoogleIdentityServices()
      .then((google) => {
        const container = containerRef.current;
        if (cancelled || !container) return;
        google.initialize({
          client_id: clientId,
          callback: (response) => onCredential.current(response.credential),
          ux_mode: 'popup',
        });
        google.renderButton(container, {
          type: 'standard',
          theme: 'outline',
          size: 'large',
          text: 'continue_with',
          shape: 'pill',
          logo_alignment: 'center',
          width: Math.min(Math.max(container.offsetWidth, 200), 400),
        });
      })
      .catch((error: unknown) => {
        console.error(error);
        if (!cancelled) setUnavailable(true);
      });
    return () => {
      cancelled = true;
    };
  }, [clientId]);

  return (
    <div className="mt-4">
      <div
        ref={containerRef}
        className="flex min-h-11 justify-center"
        aria-busy={googleLogin.isPending || undefined}
      />
      {unavailable && (
        <p className="text-center text-sm text-slate-500">Google sign-in is not available right now.</p>
      )}
    </div>
  );
}
