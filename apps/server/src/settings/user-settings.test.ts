import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerCustomer, type RegisteredCustomer } from '../test/accounts-helpers';
import { createTestApp, type TestApp } from '../test/test-app';

let t: TestApp;
let ada: RegisteredCustomer;
let bob: RegisteredCustomer;
beforeAll(async () => {
  t = await createTestApp();
  ada = await registerCustomer(t, 'ada.settings@example.com');
  bob = await registerCustomer(t, 'bob.settings@example.com');
});
afterAll(async () => t.close());

const bank = {
  account_name: 'Ada Lovelace',
  account_number: '000123456789',
  bank_name: 'First Example Bank',
  address: '1 Main St, Cheyenne, WY',
  routing_number: '021000021',
  swift: '',
};
const save = (who: RegisteredCustomer, url: string, payload: object) =>
  t.request({ method: 'POST', url, headers: who.auth, payload });
/** The customer's settings as they read them; fails unless the read itself succeeds. */
const settingsOf = async (who: RegisteredCustomer) => {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/user/settings?userId=${who.userId}`,
    headers: who.auth,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().settings;
};

describe('customer settings', () => {
  it('starts empty with both notifications on', async () => {
    expect(await settingsOf(ada)).toEqual({
      bankAccount: null,
      walletAddress: null,
      zelleEmail: null,
      referralCode: null,
      receiveEmail: true,
      receiveSMS: true,
    });
  });

  it('saves a bank account, a Zelle e-mail and a testnet wallet, and reads them back', async () => {
    expect(
      (await save(ada, '/api/user/settings/bank/save', { userId: ada.userId, bankAccount: bank })).statusCode,
    ).toBe(200);
    expect(
      (
        await save(ada, '/api/user/settings/zelle/save', {
          userId: ada.userId,
          zelleEmail: 'ada@zelle.example',
        })
      ).statusCode,
    ).toBe(200);
    const wallet = 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7';
    expect(
      (await save(ada, '/api/user/settings/save', { userId: ada.userId, walletAddress: wallet })).statusCode,
    ).toBe(200);
    const settings = await settingsOf(ada);
    expect(settings.bankAccount).toEqual(bank);
    expect(settings.zelleEmail).toBe('ada@zelle.example');
    expect(settings.walletAddress).toBe(wallet);
  });

  it('accepts a SWIFT code instead of a routing number, upper-casing it', async () => {
    const response = await save(bob, '/api/user/settings/save', {
      userId: bob.userId,
      bankAccount: { ...bank, routing_number: '', swift: 'deutdeff500' },
    });
    expect(response.statusCode).toBe(200);
    expect((await settingsOf(bob)).bankAccount.swift).toBe('DEUTDEFF500');
  });

  it('refuses a bank form missing each required field, or both routing number and SWIFT', async () => {
    for (const field of ['account_name', 'account_number', 'bank_name', 'address'] as const) {
      const response = await save(ada, '/api/user/settings/bank/save', {
        userId: ada.userId,
        bankAccount: { ...bank, [field]: '' },
      });
      expect(response.statusCode, field).toBe(400);
    }
    const neither = await save(ada, '/api/user/settings/bank/save', {
      userId: ada.userId,
      bankAccount: { ...bank, routing_number: '', swift: '' },
    });
    expect(neither.statusCode).toBe(400);
    expect(neither.json().message).toContain('Enter routing number or SWIFT code.');
    const badRouting = await save(ada, '/api/user/settings/bank/save', {
      userId: ada.userId,
      bankAccount: { ...bank, routing_number: '12345' },
    });
    expect(badRouting.statusCode).toBe(400);
    const controlChars = await save(ada, '/api/user/settings/bank/save', {
      userId: ada.userId,
      bankAccount: { ...bank, account_name: 'Ada\u0007Lovelace' },
    });
    expect(controlChars.statusCode).toBe(400);
    expect((await settingsOf(ada)).bankAccount).toEqual(bank);
  });

  it('refuses an empty Zelle e-mail with the spec message', async () => {
    const response = await save(ada, '/api/user/settings/zelle/save', {
      userId: ada.userId,
      zelleEmail: '  ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('Enter zelle payment email.');
  });

  it('refuses a Zelle e-mail that is not an e-mail address, with a message saying what to enter, and keeps the saved one', async () => {
    const saved = await save(ada, '/api/user/settings/zelle/save', {
      userId: ada.userId,
      zelleEmail: 'ada@zelle.example',
    });
    expect(saved.statusCode).toBe(200);
    for (const zelleEmail of [
      'ada',
      'ada@zelle',
      'ada @zelle.example',
      '@zelle.example',
      'ada@@zelle.example',
    ]) {
      const response = await save(ada, '/api/user/settings/zelle/save', { userId: ada.userId, zelleEmail });
      expect(response.statusCode, zelleEmail).toBe(400);
      expect(response.json().message).toContain('Enter a valid Zelle payment email, like name@example.com.');
    }
    expect((await settingsOf(ada)).zelleEmail).toBe('ada@zelle.example');
  });

  it('refuses wallet addresses of the wrong network, with a bad checksum, mixed case or no key, saying which', async () => {
    for (const [walletAddress, problem] of [
      ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', /^This is a mainnet address\. Use a testnet address\.$/],
      ['tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k8', /typo: its checksum/],
      ['tb1QRP33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7', /mixes capital and small letters/],
      ['tb1pve739yap4uxjvfk0jrey69078u0gasm2nwvv483ec6zkzulgw9xqtac2nz', /does not hold a valid public key/],
      ['not an address', /^This is not a bitcoin address\.$/],
    ] as const) {
      const response = await save(ada, '/api/user/settings/save', { userId: ada.userId, walletAddress });
      expect(response.statusCode, walletAddress).toBe(400);
      expect(response.json().message).toMatch(/^Enter Valid Bitcoin Address\. /);
      expect(response.json().errors.walletAddress).toMatch(problem);
    }
  });

  it('flips each notification toggle on its own', async () => {
    expect(
      (await save(ada, '/api/user/settings/save', { userId: ada.userId, receiveEmail: false })).statusCode,
    ).toBe(200);
    expect(await settingsOf(ada)).toMatchObject({ receiveEmail: false, receiveSMS: true });
    expect(
      (await save(ada, '/api/user/settings/save', { userId: ada.userId, receiveSMS: false })).statusCode,
    ).toBe(200);
    expect(await settingsOf(ada)).toMatchObject({ receiveEmail: false, receiveSMS: false });
  });

  it('refuses more than one change at once, unknown fields and wrong types', async () => {
    for (const payload of [
      { userId: ada.userId, receiveEmail: true, receiveSMS: true },
      { userId: ada.userId },
      { userId: ada.userId, receiveEmail: 'yes' },
      { userId: ada.userId, role: 'admin' },
    ]) {
      expect((await save(ada, '/api/user/settings/save', payload)).statusCode, JSON.stringify(payload)).toBe(
        400,
      );
    }
  });

  it('keeps referral codes unique and permanent', async () => {
    const code = 'Abc_def-12345678';
    expect(
      (await save(ada, '/api/user/settings/save', { userId: ada.userId, referralCode: code })).json().message,
    ).toBe('Referral code has been generated!');
    const taken = await save(bob, '/api/user/settings/save', { userId: bob.userId, referralCode: code });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toMatch(/already taken/);
    const again = await save(ada, '/api/user/settings/save', {
      userId: ada.userId,
      referralCode: 'ZZZZZZZZZZZZZZZZ',
    });
    expect(again.statusCode).toBe(409);
    expect((await settingsOf(ada)).referralCode).toBe(code);
    const malformed = await save(bob, '/api/user/settings/save', {
      userId: bob.userId,
      referralCode: 'short',
    });
    expect(malformed.statusCode).toBe(400);
  });

  it("refuses another customer's id in every settings call (403) and changes nothing", async () => {
    // Bob's own details, saved by Bob: what Ada must neither read nor change.
    const bobsBank = { ...bank, account_name: 'Bob Builder', routing_number: '', swift: 'DEUTDEFF500' };
    for (const [url, payload] of [
      ['/api/user/settings/bank/save', { bankAccount: bobsBank }],
      ['/api/user/settings/zelle/save', { zelleEmail: 'bob@zelle.example' }],
    ] as const) {
      expect((await save(bob, url, { userId: bob.userId, ...payload })).statusCode, url).toBe(200);
    }
    const before = await settingsOf(bob);
    expect(before).toMatchObject({
      bankAccount: bobsBank,
      zelleEmail: 'bob@zelle.example',
      receiveEmail: true,
    });
    const attempts = [
      t.app.inject({ method: 'GET', url: `/api/user/settings?userId=${bob.userId}`, headers: ada.auth }),
      save(ada, '/api/user/settings/save', { userId: bob.userId, receiveEmail: false }),
      save(ada, '/api/user/settings/bank/save', { userId: bob.userId, bankAccount: bank }),
      save(ada, '/api/user/settings/zelle/save', { userId: bob.userId, zelleEmail: 'thief@example.com' }),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 'FORBIDDEN', message: expect.any(String) });
      expect(response.body).not.toContain('DEUTDEFF500');
      expect(response.body).not.toContain('bob@zelle.example');
    }
    expect(await settingsOf(bob)).toEqual(before);
  });

  it('refuses visitors (401)', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/api/user/settings?userId=${ada.userId}` });
    expect(response.statusCode).toBe(401);
  });
});
