import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passkeyChallenges, payoutAddresses } from '../db/schema';
import {
  latestCode,
  registerCustomer,
  registerVerifiedCustomer,
  type RegisteredCustomer,
} from '../test/accounts-helpers';
import { buyOrderPayload, confirmPayoutAddresses, payoutAddressLinks } from '../test/buy-helpers';
import { registerPasskey, requestWithStepUp, siteOf, stepUp, withStepUp } from '../test/passkey-helpers';
import { stepUpHeader, type SoftAuthenticator } from '../test/soft-authenticator';
import { createTestApp, type TestApp } from '../test/test-app';

/**
 * Step-up bound to the action (docs/design.md, "Passkeys"): with a passkey, each guarded change needs
 * an assertion on a challenge made for that user, action and details, at most five minutes old, used
 * once; and recovery without a passkey, after which new payout destinations wait 48 hours.
 */

let t: TestApp;
let alice: RegisteredCustomer;
let aliceKey: { authenticator: SoftAuthenticator; id: string };
let bob: RegisteredCustomer;
let bobKey: { authenticator: SoftAuthenticator; id: string };

const FIRST = 'tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl';
const SECOND = 'tb1qd7spv5q28348xl4myc8zmh983w5jx32cjhkn97';
const THIRD = 'tb1qxdyjf6h5d6qxap4n2dap97q4j5ps6ua8sll0ct';
const REFUSED = { code: 'PASSKEY_STEP_UP_REQUIRED', message: 'Confirm this change with your passkey.' };

beforeAll(async () => {
  t = await createTestApp();
  alice = await registerCustomer(t, 'alice.stepup@example.com');
  aliceKey = await registerPasskey(t, alice);
  bob = await registerCustomer(t, 'bob.stepup@example.com');
  bobKey = await registerPasskey(t, bob);
});
afterAll(async () => t.close());

const addAddress = (who: RegisteredCustomer, body: Record<string, unknown>, header?: string) =>
  t.request({
    method: 'POST',
    url: '/api/payout-addresses',
    headers: withStepUp(who, header),
    payload: body,
  });
/** An address-book entry added with a step-up made for it. */
const addConfirmedAddress = (
  who: RegisteredCustomer,
  authenticator: SoftAuthenticator,
  body: { label: string; address: string },
) =>
  requestWithStepUp(
    t,
    who,
    authenticator,
    { action: 'payout-address.add', details: body },
    { method: 'POST', url: '/api/payout-addresses', payload: body },
  );

describe('a payout address added with a passkey', () => {
  it('is refused without an assertion, and accepted with one made for it', async () => {
    const body = { label: 'Cold storage', address: FIRST };
    const bare = await addAddress(alice, body);
    expect(bare.statusCode).toBe(403);
    expect(bare.json()).toMatchObject(REFUSED);
    expect((await addConfirmedAddress(alice, aliceKey.authenticator, body)).statusCode).toBe(200);
  });

  it('refuses a replayed assertion', async () => {
    const body = { label: 'Spare', address: SECOND };
    const header = await stepUp(t, alice, aliceKey.authenticator, 'payout-address.add', body);
    expect((await addAddress(alice, body, header)).statusCode).toBe(200);
    const removed = await t.database.db
      .delete(payoutAddresses)
      .where(eq(payoutAddresses.address, SECOND))
      .returning();
    expect(removed).toHaveLength(1);
    const replay = await addAddress(alice, body, header);
    expect(replay.statusCode).toBe(403);
    expect(replay.json()).toMatchObject(REFUSED);
  });

  it('refuses an assertion made for other details, in any field', async () => {
    const header = await stepUp(t, alice, aliceKey.authenticator, 'payout-address.add', {
      label: 'Thief',
      address: THIRD,
    });
    expect((await addAddress(alice, { label: 'Thief', address: SECOND }, header)).statusCode).toBe(403);
    const relabelled = await stepUp(t, alice, aliceKey.authenticator, 'payout-address.add', {
      label: 'Mine',
      address: THIRD,
    });
    expect((await addAddress(alice, { label: 'Other', address: THIRD }, relabelled)).statusCode).toBe(403);
  });

  it('binds the canonical details: field order and surrounding spaces do not matter', async () => {
    const header = await stepUp(t, alice, aliceKey.authenticator, 'payout-address.add', {
      address: ` ${THIRD}`,
      label: 'Travel',
    });
    expect((await addAddress(alice, { label: 'Travel ', address: THIRD }, header)).statusCode).toBe(200);
  });

  it('refuses an assertion made for another action', async () => {
    const body = { label: 'Other action', address: 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx' };
    const header = await stepUp(t, alice, aliceKey.authenticator, 'wallet-address.save', {
      walletAddress: body.address,
    });
    expect((await addAddress(alice, body, header)).statusCode).toBe(403);
  });

  it("refuses another customer's assertion, even for the same details", async () => {
    const body = { label: 'Shared', address: FIRST };
    const bobs = await stepUp(t, bob, bobKey.authenticator, 'payout-address.add', body);
    expect((await addAddress(alice, { label: 'Shared', address: SECOND }, bobs)).statusCode).toBe(403);
    // Nor is Alice's own passkey accepted on a challenge Bob asked for.
    const { options } = (
      await t.request({
        method: 'POST',
        url: '/api/step-up/options',
        headers: bob.auth,
        payload: { action: 'payout-address.add', details: body },
      })
    ).json<{ options: { challenge: string } }>();
    const aliceOnBobs = stepUpHeader(aliceKey.authenticator.assert(options, siteOf(t)));
    expect((await addAddress(bob, body, aliceOnBobs)).statusCode).toBe(403);
  });

  it('refuses a challenge older than five minutes', async () => {
    const body = { label: 'Late', address: 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7' };
    const header = await stepUp(t, alice, aliceKey.authenticator, 'payout-address.add', body);
    const { challenge } = JSON.parse(
      Buffer.from(
        JSON.parse(Buffer.from(header, 'base64url').toString()).response.clientDataJSON as string,
        'base64url',
      ).toString(),
    ) as { challenge: string };
    const aged = new Date(Date.now() - 1000);
    await t.database.db
      .update(passkeyChallenges)
      .set({ createdAt: new Date(aged.getTime() - 5 * 60_000), expiresAt: aged })
      .where(eq(passkeyChallenges.challenge, challenge));
    expect((await addAddress(alice, body, header)).statusCode).toBe(403);
  });

  it('refuses a header that is not an assertion, and details that do not fit the action', async () => {
    const junk = await addAddress(alice, { label: 'Junk', address: THIRD }, 'not-base64-json');
    expect(junk.statusCode).toBe(403);
    const badDetails = await t.request({
      method: 'POST',
      url: '/api/step-up/options',
      headers: alice.auth,
      payload: { action: 'payout-address.add', details: { label: 'x', amount: 5 } },
    });
    expect(badDetails.statusCode).toBe(400);
    const badAction = await t.request({
      method: 'POST',
      url: '/api/step-up/options',
      headers: alice.auth,
      payload: { action: 'order.cancel', details: {} },
    });
    expect(badAction.statusCode).toBe(400);
  });

  it('lets a customer without a passkey add addresses as before (409 for options)', async () => {
    const carol = await registerCustomer(t, 'carol.stepup@example.com');
    expect((await addAddress(carol, { label: 'Mine', address: FIRST })).statusCode).toBe(200);
    const options = await t.request({
      method: 'POST',
      url: '/api/step-up/options',
      headers: carol.auth,
      payload: { action: 'payout-address.add', details: { label: 'Mine', address: FIRST } },
    });
    expect(options.statusCode).toBe(409);
  });
});

describe('other guarded changes', () => {
  const bank = {
    account_name: 'Alice Example',
    account_number: '123456789',
    bank_name: 'First Bank',
    address: '1 Main St',
    routing_number: '021000021',
  };

  it('guards the bank account, the Zelle e-mail and the wallet address in settings', async () => {
    const calls = [
      {
        url: '/api/user/settings/bank/save',
        body: { bankAccount: bank },
        action: 'bank-account.save' as const,
      },
      { url: '/api/user/settings/save', body: { bankAccount: bank }, action: 'bank-account.save' as const },
      {
        url: '/api/user/settings/zelle/save',
        body: { zelleEmail: 'alice@bank.example' },
        action: 'zelle-email.save' as const,
      },
      {
        url: '/api/user/settings/save',
        body: { walletAddress: FIRST },
        action: 'wallet-address.save' as const,
      },
    ];
    for (const { url, body, action } of calls) {
      const payload = { userId: alice.userId, ...body };
      const bare = await t.request({ method: 'POST', url, headers: alice.auth, payload });
      expect(bare.statusCode, url).toBe(403);
      const confirmed = await requestWithStepUp(
        t,
        alice,
        aliceKey.authenticator,
        { action, details: body },
        { method: 'POST', url, payload },
      );
      expect(confirmed.statusCode, `${url} ${confirmed.body}`).toBe(200);
    }
    // Notification toggles are no money-moving change.
    const toggle = await t.request({
      method: 'POST',
      url: '/api/user/settings/save',
      headers: alice.auth,
      payload: { userId: alice.userId, receiveEmail: false },
    });
    expect(toggle.statusCode).toBe(200);
  });

  it('guards the e-mail change and the phone change', async () => {
    await t.request({ method: 'POST', url: '/api/user/step-up/send', headers: alice.auth });
    const stepUpCode = await latestCode(t, alice.email);
    const emailBody = { newEmail: 'alice.new@example.com', stepUpCode };
    const bare = await t.request({
      method: 'POST',
      url: '/api/user/email/change',
      headers: alice.auth,
      payload: emailBody,
    });
    expect(bare.statusCode).toBe(403);
    expect(bare.json()).toMatchObject(REFUSED);
    const changed = await requestWithStepUp(
      t,
      alice,
      aliceKey.authenticator,
      { action: 'email.change', details: { newEmail: emailBody.newEmail } },
      { method: 'POST', url: '/api/user/email/change', payload: emailBody },
    );
    expect(changed.statusCode).toBe(200);

    await t.request({ method: 'POST', url: '/api/user/step-up/send', headers: alice.auth });
    const phoneBody = {
      email: alice.email,
      phone: '+12025550199',
      stepUpCode: await latestCode(t, alice.email),
    };
    const barePhone = await t.request({
      method: 'POST',
      url: '/api/verification/phone/otp',
      headers: alice.auth,
      payload: phoneBody,
    });
    expect(barePhone.statusCode).toBe(403);
    expect(barePhone.json()).toMatchObject(REFUSED);
    const withPasskey = await requestWithStepUp(
      t,
      alice,
      aliceKey.authenticator,
      { action: 'phone.change', details: { phone: phoneBody.phone } },
      { method: 'POST', url: '/api/verification/phone/otp', payload: phoneBody },
    );
    expect(withPasskey.statusCode, withPasskey.body).toBe(200);
  });
});

describe('a buy naming a new address', () => {
  it('is refused for a customer with a passkey; an address the passkey added is used', async () => {
    const erin = await registerVerifiedCustomer(t, 'erin.stepup@example.com');
    const key = await registerPasskey(t, erin);
    const save = (walletAddress: string) =>
      buyOrderPayload(t, erin, 50, { walletAddress }).then((payload) =>
        t.request({ method: 'POST', url: '/api/order/save', headers: erin.auth, payload }),
      );
    const refused = await save(SECOND);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'PASSKEY_STEP_UP_REQUIRED' });
    const added = await addConfirmedAddress(erin, key.authenticator, { label: 'Mine', address: SECOND });
    expect(added.statusCode).toBe(200);
    expect((await save(SECOND)).statusCode).toBe(200);
  });
});

describe('recovery without a passkey', () => {
  it('needs both codes, removes every passkey, and holds new payout addresses for 48 hours', async () => {
    const dave = await registerCustomer(t, 'dave.stepup@example.com');
    await registerPasskey(t, dave);
    const sent = await t.request({ method: 'POST', url: '/api/passkeys/recovery/send', headers: dave.auth });
    expect(sent.statusCode).toBe(200);
    const emailCode = await latestCode(t, dave.email);
    const smsCode = await latestCode(t, dave.phone);
    const swapped = await t.request({
      method: 'POST',
      url: '/api/passkeys/recovery/verify',
      headers: dave.auth,
      payload: { emailCode: smsCode === emailCode ? '000000' : smsCode, smsCode: emailCode },
    });
    expect(swapped.statusCode).toBe(400);
    await t.request({ method: 'POST', url: '/api/passkeys/recovery/send', headers: dave.auth });
    const started = Date.now();
    const recovered = await t.request({
      method: 'POST',
      url: '/api/passkeys/recovery/verify',
      headers: dave.auth,
      payload: { emailCode: await latestCode(t, dave.email), smsCode: await latestCode(t, dave.phone) },
    });
    expect(recovered.statusCode).toBe(200);
    const holdUntil = Date.parse(recovered.json<{ payoutHoldUntil: string }>().payoutHoldUntil);
    expect(holdUntil - started).toBeGreaterThanOrEqual(48 * 3_600_000 - 60_000);
    const list = await t.request({ method: 'GET', url: '/api/passkeys', headers: dave.auth });
    expect(list.json()).toMatchObject({ passkeys: [], payoutHoldUntil: new Date(holdUntil).toISOString() });
    const mail = await t.app.inject({
      method: 'GET',
      url: `/api/dev/outbox?to=${encodeURIComponent(dave.email)}`,
    });
    expect(mail.body).toContain('Your OffZero account was recovered');
    expect(mail.body).toContain('48 hours');

    // No passkey now: the address goes in, and confirming it makes it usable only after the hold.
    expect((await addAddress(dave, { label: 'New', address: FIRST })).statusCode).toBe(200);
    const [link] = await payoutAddressLinks(t, dave);
    const confirmed = await t.request({
      method: 'POST',
      url: `/api/payout-addresses/${link!.id}/confirm`,
      headers: dave.auth,
      payload: { token: link!.token },
    });
    expect(confirmed.statusCode).toBe(200);
    const entry = confirmed.json<{ payoutAddress: { status: string; usableAt: string } }>().payoutAddress;
    expect(entry.status).toBe('confirmed');
    expect(Date.parse(entry.usableAt)).toBe(holdUntil);

    // Bank and Zelle payout details wait out the hold too.
    const bank = await t.request({
      method: 'POST',
      url: '/api/user/settings/zelle/save',
      headers: dave.auth,
      payload: { userId: dave.userId, zelleEmail: 'thief@bank.example' },
    });
    expect(bank.statusCode).toBe(409);
    expect(bank.json<{ message: string }>().message).toContain('payout details can change from');

    const again = await t.request({ method: 'POST', url: '/api/passkeys/recovery/send', headers: dave.auth });
    expect(again.statusCode).toBe(409);
  });
});

describe('a recurring buy started with a passkey', () => {
  it("needs an assertion made for the plan's amount, schedule and address", async () => {
    const carol = await registerVerifiedCustomer(t, 'carol.plan.stepup@example.com');
    const key = await registerPasskey(t, carol);
    const bankAccount = {
      account_name: 'Carol Example',
      account_number: '000123456789',
      bank_name: 'First Example Bank',
      address: '1 Main St, Cheyenne, WY',
      routing_number: '021000021',
    };
    const savedBank = await requestWithStepUp(
      t,
      carol,
      key.authenticator,
      { action: 'bank-account.save', details: { bankAccount } },
      { method: 'POST', url: '/api/user/settings/bank/save', payload: { userId: carol.userId, bankAccount } },
    );
    expect(savedBank.statusCode, savedBank.body).toBe(200);
    const added = await addConfirmedAddress(carol, key.authenticator, {
      label: 'Plan wallet',
      address: THIRD,
    });
    expect(added.statusCode, added.body).toBe(200);
    await confirmPayoutAddresses(t, carol);
    const payoutAddressId = added.json<{ payoutAddress: { id: string } }>().payoutAddress.id;

    const firstRunOn = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const body = {
      amountUsd: '50',
      frequency: 'weekly',
      firstRunOn,
      payoutAddressId,
      authorization: { accepted: true },
    };
    const create = (header?: string) =>
      t.request({
        method: 'POST',
        url: '/api/plans',
        headers: withStepUp(carol, header),
        payload: body,
      });
    const bare = await create();
    expect(bare.statusCode).toBe(403);
    expect(bare.json()).toMatchObject(REFUSED);
    const otherAmount = await stepUp(t, carol, key.authenticator, 'plan.create', {
      amountUsd: '500',
      frequency: 'weekly',
      payoutAddressId,
    });
    expect((await create(otherAmount)).statusCode).toBe(403);
    const header = await stepUp(t, carol, key.authenticator, 'plan.create', {
      amountUsd: '50',
      frequency: 'weekly',
      payoutAddressId,
    });
    const created = await create(header);
    expect(created.statusCode, created.body).toBe(200);
    // Used once: the same assertion cannot start a second plan.
    expect((await create(header)).statusCode).toBe(403);
  });
});

describe('a buy paid out to a Lightning invoice, with a passkey', () => {
  it('needs an assertion made for exactly that invoice; an on-chain buy needs none', async () => {
    const dora = await registerVerifiedCustomer(t, 'dora.lightning.stepup@example.com');
    const key = await registerPasskey(t, dora);
    const newInvoice = async () => {
      const made = await t.request({ method: 'POST', url: '/api/dev/lightning/invoice', payload: {} });
      expect(made.statusCode, made.body).toBe(200);
      return made.json<{ invoice: string }>().invoice;
    };
    const invoice = await newInvoice();
    const save = async (walletAddress: string, header?: string) =>
      t.request({
        method: 'POST',
        url: '/api/order/save',
        headers: withStepUp(dora, header),
        payload: await buyOrderPayload(t, dora, 50, { walletAddress }),
      });

    const bare = await save(invoice);
    expect(bare.statusCode).toBe(403);
    expect(bare.json()).toMatchObject(REFUSED);
    const forAnother = await stepUp(t, dora, key.authenticator, 'buy.lightning-destination', {
      walletAddress: await newInvoice(),
    });
    expect((await save(invoice, forAnother)).statusCode).toBe(403);
    const header = await stepUp(t, dora, key.authenticator, 'buy.lightning-destination', {
      walletAddress: invoice,
    });
    const saved = await save(invoice, header);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<{ order: { walletAddress: string } }>().order.walletAddress).toBe(invoice);
  });
});
