/**
 * What the benchmarks do through the API of a server in demo mode: calls with the CSRF token, the codes
 * the demo outbox received, and a customer registered the way the browser registers one.
 */
import { csrfRequestHeaders } from '../../apps/server/src/http/csrf';

export interface DemoClient {
  base: string;
  /** The CSRF token and its cookie, sent with every state-changing call. */
  csrfHeaders: Record<string, string>;
  call<T>(method: string, url: string, body?: object, headers?: Record<string, string>): Promise<T>;
  /** The newest code the demo outbox holds for an e-mail address or phone number. */
  codeFor(to: string): Promise<string>;
}

export interface DemoCustomer {
  userId: string;
  email: string;
  token: string;
  auth: { authorization: string };
  csrfHeaders: Record<string, string>;
}

/** One JSON call to the API; a refusal throws with its status and answer. */
export async function callApi<T>(
  base: string,
  method: string,
  url: string,
  body?: object,
  headers: Record<string, string> = {},
): Promise<T> {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

export async function demoClient(base: string): Promise<DemoClient> {
  const call = <T>(method: string, url: string, body?: object, headers?: Record<string, string>) =>
    callApi<T>(base, method, url, body, headers);
  const { _csrf } = await call<{ _csrf: string }>('GET', '/api/csrf');
  const codeFor = async (to: string): Promise<string> => {
    // Codes are written to the outbox with the request; delivery may lag it a little.
    for (let attempt = 0; attempt < 40; attempt += 1) {
      const { messages } = await call<{ messages: { code: string | null }[] }>(
        'GET',
        `/api/dev/outbox?to=${encodeURIComponent(to)}`,
      );
      const code = messages.find((message) => message.code)?.code;
      if (code) return code;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`no code reached ${to}`);
  };
  return { base, csrfHeaders: csrfRequestHeaders(_csrf), call, codeFor };
}

/**
 * Registers a customer with e-mail and phone verified (codes from the demo outbox) and KYC approved
 * through the demo decision, as the web app's registration does.
 */
export async function registerDemoCustomer(
  client: DemoClient,
  contact: { email: string; phone: string },
): Promise<DemoCustomer> {
  const post = <T>(url: string, body: object) => client.call<T>('POST', url, body, client.csrfHeaders);
  const { email, phone } = contact;
  await post('/api/verification/email/otp', { email, purpose: 'new account' });
  const { registrationToken } = await post<{ registrationToken: string }>('/api/verification/verify/otp', {
    email,
    code: await client.codeFor(email),
  });
  await post('/api/verification/phone/otp', { email, phone, registrationToken });
  const session = await post<{ token: string; user: { _id: string } }>('/api/verification/verify/phone', {
    email,
    phone,
    registrationToken,
    code: await client.codeFor(phone),
  });
  const userId = session.user._id;
  // Approved 4 days ago: an established customer, past the scam shield's new-customer cap (docs/design.md).
  const approvedAt = new Date(Date.now() - 4 * 24 * 3_600_000).toISOString();
  await post('/api/dev/kyc/decide', { userId, status: 'GREEN', approvedAt });
  return {
    userId,
    email,
    token: session.token,
    auth: { authorization: `Bearer ${session.token}` },
    csrfHeaders: client.csrfHeaders,
  };
}
