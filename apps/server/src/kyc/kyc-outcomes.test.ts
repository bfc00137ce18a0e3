import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logIn, registerCustomer, type RegisteredCustomer } from '../test/accounts-helpers';
import { buyOrderPayload } from '../test/buy-helpers';
import { createTestApp, type TestApp } from '../test/test-app';

// What a customer can act on after an identity decision (docs/design.md): a rejection's reason, in
// full, in their KYC answer, in the decision e-mail and when they try to trade; then a new submission.

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(64, 1),
]);
const validForm = {
  legalName: 'Grace Hopper',
  dateOfBirth: '1986-12-09',
  country: 'US',
  residenceState: 'CA',
  documentType: 'passport',
  documentNumber: 'P7654321',
};
const REASON =
  'The photo of your passport is blurred and its expiry date cannot be read. Upload a sharp photo of the whole page.';

let t: TestApp;
let admin: RegisteredCustomer;

beforeAll(async () => {
  t = await createTestApp();
  admin = await logIn(t, 'admin@offzero.local');
});
afterAll(async () => t.close());

/** Sends the demo verification form with a document image, as the browser's FormData would. */
async function submitForm(who: RegisteredCustomer) {
  const form = new FormData();
  for (const [key, value] of Object.entries(validForm)) form.append(key, value);
  form.append('document', new Blob([PNG], { type: 'image/png' }), 'document.png');
  const request = new Request('http://local/', { method: 'POST', body: form });
  return t.request({
    method: 'POST',
    url: '/api/kyc/local/submit',
    headers: { ...who.auth, 'content-type': request.headers.get('content-type')! },
    payload: Buffer.from(await request.arrayBuffer()),
  });
}

const kycAnswer = (who: RegisteredCustomer, userId = who.userId) =>
  t.app.inject({ method: 'GET', url: `/api/kyc/${userId}`, headers: who.auth });

const decide = (who: RegisteredCustomer, body: { status: 'GREEN' | 'RED'; reason?: string }) =>
  t.request({ method: 'POST', url: `/api/admin/kyc/${who.userId}`, headers: admin.auth, payload: body });

const emailsTo = async (who: RegisteredCustomer) =>
  (await t.app.inject({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(who.email)}` }))
    .json<{ messages: { channel: string; subject: string; text: string }[] }>()
    .messages.filter((message) => message.channel === 'email');

const saveBuy = async (who: RegisteredCustomer) =>
  t.request({
    method: 'POST',
    url: '/api/order/save',
    headers: who.auth,
    // Approved just now, the customer is new: their first buy carries the scam answer, as the web app sends it.
    payload: {
      ...(await buyOrderPayload(t, who, 100)),
      scamCheck: { ownWallet: true, someoneAskedMe: false },
    },
  });

describe('a KYC rejection the customer can act on', () => {
  let grace: RegisteredCustomer;
  let eve: RegisteredCustomer;
  beforeAll(async () => {
    grace = await registerCustomer(t, 'grace.kycout@example.com');
    eve = await registerCustomer(t, 'eve.kycout@example.com');
  });

  it('while under review, trading says so and the answer carries no reason', async () => {
    expect((await submitForm(grace)).json().kyc.status).toBe('YELLOW');
    const answer = (await kycAnswer(grace)).json().kyc;
    expect(answer.status).toBe('YELLOW');
    expect(answer).not.toHaveProperty('reason');
    const refused = await saveBuy(grace);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Your KYC is under review');
  });

  it("shows staff's reason in full to the customer, and only to them", async () => {
    expect((await decide(grace, { status: 'RED', reason: REASON })).statusCode).toBe(200);
    const answer = await kycAnswer(grace);
    expect(answer.statusCode).toBe(200);
    expect(answer.json().kyc).toMatchObject({ status: 'RED', reason: REASON });

    const other = await kycAnswer(eve, grace.userId);
    expect(other.statusCode).toBe(403);
    expect(other.body).not.toContain('blurred');
  });

  it('e-mails the decision with the reason in it', async () => {
    const [email] = (await emailsTo(grace)).filter((m) =>
      m.subject.includes('verification was not approved'),
    );
    expect(email?.text).toContain(`not approved: ${REASON}`);
    expect(email?.text).toContain('submit your verification again');
  });

  it('refuses an order with the reason instead of "under review"', async () => {
    const refused = await saveBuy(grace);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(`Your identity verification was not approved: ${REASON}`);
  });

  it('lets the customer submit again: back under review, the old reason gone', async () => {
    const again = await submitForm(grace);
    expect(again.statusCode).toBe(200);
    expect(again.json().kyc.status).toBe('YELLOW');
    expect((await kycAnswer(grace)).json().kyc).not.toHaveProperty('reason');
    expect((await saveBuy(grace)).json().message).toBe('Your KYC is under review');

    // Approved this time: one approval e-mail, and the customer may trade.
    expect((await decide(grace, { status: 'GREEN' })).statusCode).toBe(200);
    const approvals = (await emailsTo(grace)).filter((m) => m.subject === 'Your identity is verified');
    expect(approvals).toHaveLength(1);
    expect((await saveBuy(grace)).statusCode).toBe(200);
  });

  it('without a reason, says plainly that the verification was not approved', async () => {
    // The demo helper decides without a reason (staff must always give one).
    await submitForm(eve);
    await t.request({
      method: 'POST',
      url: '/api/dev/kyc/decide',
      payload: { userId: eve.userId, status: 'RED' },
    });
    expect((await kycAnswer(eve)).json().kyc).not.toHaveProperty('reason');
    expect((await saveBuy(eve)).json().message).toBe('Your identity verification was not approved.');
    const [email] = (await emailsTo(eve)).filter((m) => m.subject.includes('not approved'));
    expect(email?.text).toContain('Your OffZero identity verification was not approved.');
  });
});
