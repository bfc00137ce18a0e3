import type { TestApp } from './test-app';

/** Reads the newest code sent to an address from the demo outbox, as a person trying the demo would. */
export async function latestCode(t: TestApp, to: string): Promise<string> {
  const response = await t.app.inject({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(to)}` });
  const [message] = response.json<{ messages: { code: string | null }[] }>().messages;
  if (!message?.code) throw new Error(`no code in the outbox for ${to}`);
  return message.code;
}

export interface RegisteredCustomer {
  token: string;
  userId: string;
  email: string;
  phone: string;
  auth: { authorization: string };
}

let phoneCounter = 0;
/** A distinct valid US number for each customer a test registers. */
export function nextPhone(): string {
  phoneCounter += 1;
  return `+1202555${String(1000 + (phoneCounter % 9000)).padStart(4, '0')}`;
}

/** Runs the four registration steps through the API and returns the new customer's session. */
export async function registerCustomer(
  t: TestApp,
  email: string,
  options: { phone?: string; referralCode?: string } = {},
): Promise<RegisteredCustomer> {
  const phone = options.phone ?? nextPhone();
  const expectOk = async (promise: ReturnType<TestApp['request']>) => {
    const response = await promise;
    if (response.statusCode !== 200) throw new Error(`${response.statusCode}: ${response.body}`);
    return response;
  };
  await expectOk(
    t.request({
      method: 'POST',
      url: '/api/verification/email/otp',
      payload: { email, purpose: 'new account' },
    }),
  );
  const verified = await expectOk(
    t.request({
      method: 'POST',
      url: '/api/verification/verify/otp',
      payload: {
        email,
        code: await latestCode(t, email),
        ...(options.referralCode ? { referralCode: options.referralCode } : {}),
      },
    }),
  );
  const { registrationToken } = verified.json<{ registrationToken: string }>();
  await expectOk(
    t.request({
      method: 'POST',
      url: '/api/verification/phone/otp',
      payload: { email, phone, registrationToken },
    }),
  );
  const session = await expectOk(
    t.request({
      method: 'POST',
      url: '/api/verification/verify/phone',
      payload: { email, phone, registrationToken, code: await latestCode(t, phone) },
    }),
  );
  const { token, user } = session.json<{ token: string; user: { _id: string } }>();
  return { token, userId: user._id, email, phone, auth: { authorization: `Bearer ${token}` } };
}

/** Approved this long ago (4 days), a customer is past the scam shield's 72 new hours and still within the 7
 * days of the large-first-trade rule. */
export const ESTABLISHED_APPROVAL_MS = 4 * 24 * 3_600_000;

/**
 * A customer who may trade: both contacts verified and KYC approved (through the demo helper) 4 days
 * ago, so the new-customer rules of the scam shield do not apply; `kyc` makes another (a new customer,
 * a New York resident).
 */
export async function registerVerifiedCustomer(
  t: TestApp,
  email: string,
  kyc: { residenceState?: string; approvedAt?: string; fullName?: string } = {},
): Promise<RegisteredCustomer> {
  const customer = await registerCustomer(t, email);
  const decided = await t.request({
    method: 'POST',
    url: '/api/dev/kyc/decide',
    payload: {
      userId: customer.userId,
      status: 'GREEN',
      approvedAt: new Date(Date.now() - ESTABLISHED_APPROVAL_MS).toISOString(),
      ...kyc,
    },
  });
  if (decided.statusCode !== 200) throw new Error(`KYC decide failed: ${decided.body}`);
  return customer;
}

/** Signs in an existing account (the seeded demo admin, for one) with an e-mail code. */
export async function logIn(t: TestApp, email: string): Promise<RegisteredCustomer> {
  const sent = await t.request({ method: 'POST', url: '/api/user/login-otp/send', payload: { email } });
  if (sent.statusCode !== 200) throw new Error(`${sent.statusCode}: ${sent.body}`);
  const verified = await t.request({
    method: 'POST',
    url: '/api/user/login-otp/verify',
    payload: { email, code: await latestCode(t, email) },
  });
  if (verified.statusCode !== 200) throw new Error(`${verified.statusCode}: ${verified.body}`);
  const { token, user } = verified.json<{
    token: string;
    user: { _id: string; phoneNumber: string | null };
  }>();
  return {
    token,
    userId: user._id,
    email,
    phone: user.phoneNumber ?? '',
    auth: { authorization: `Bearer ${token}` },
  };
}
