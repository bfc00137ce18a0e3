import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/config';
import { logIn, registerVerifiedCustomer, type RegisteredCustomer } from '../../test/accounts-helpers';
import { buyOrderPayload } from '../../test/buy-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { BLOCKED_COUNTRY_MESSAGE } from './blocked-places';
import { canonicalIp, openIpCountryDatabase } from './ip-country';

/** One address of each default blocked country, and one of the United States. */
const IPS = { IR: '2.144.0.1', KP: '175.45.176.1', CU: '152.206.0.1', SY: '5.0.0.1' } as const;
const US_IP = '8.8.8.8';

describe('IP to country (IPtoASN database, PDDL)', () => {
  const lookup = openIpCountryDatabase();

  it('maps addresses of the blocked countries and others, IPv4 and IPv6', () => {
    for (const [country, ip] of Object.entries(IPS)) expect(lookup.countryOf(ip)).toBe(country);
    expect(lookup.countryOf(US_IP)).toBe('US');
    expect(lookup.countryOf('2001:4860:4860::8888')).toBe('US');
    expect(lookup.countryOf(`::ffff:${IPS.IR}`)).toBe('IR');
  });

  it('maps every spelling of an IPv4-mapped or expanded IPv6 address to its country', () => {
    // 2.144.0.1 (Iran) is 0290:0001 in the last two groups.
    for (const ip of [
      '::FFFF:2.144.0.1',
      '::ffff:290:1',
      '0:0:0:0:0:ffff:2.144.0.1',
      '0000:0000:0000:0000:0000:FFFF:0290:0001',
    ]) {
      expect(lookup.countryOf(ip), ip).toBe('IR');
    }
    expect(lookup.countryOf('2001:4860:4860:0000:0000:0000:0000:8888')).toBe('US');
    expect(canonicalIp('2001:0DB8:0000:0000:0000:0000:0000:0001')).toBe('2001:db8::1');
    expect(canonicalIp('fe80::1%eth0')).toBeNull();
  });

  it('answers null for private, malformed and empty addresses', () => {
    for (const ip of ['127.0.0.1', '10.1.2.3', '::1', 'not an ip', '', '999.1.1.1']) {
      expect(lookup.countryOf(ip)).toBeNull();
    }
  });
});

describe('BLOCKED_COUNTRIES', () => {
  it('defaults to CU, IR, KP and SY and takes a list of two-letter codes', () => {
    expect(loadConfig({}).blockedCountries).toEqual(['CU', 'IR', 'KP', 'SY']);
    expect(loadConfig({ BLOCKED_COUNTRIES: ' ru, by ,RU' }).blockedCountries).toEqual(['RU', 'BY']);
    expect(loadConfig({ BLOCKED_COUNTRIES: '' }).blockedCountries).toEqual([]);
    expect(() => loadConfig({ BLOCKED_COUNTRIES: 'Iran,CU' })).toThrow(/not two-letter country codes: IRAN/);
  });
});

describe('blocked places behind a trusted proxy (docs/design.md)', () => {
  let t: TestApp;
  let ada: RegisteredCustomer;
  let admin: RegisteredCustomer;
  const from = (ip: string) => ({ 'x-forwarded-for': ip });
  const expectBlocked = (response: Awaited<ReturnType<TestApp['request']>>) => {
    expect(response.statusCode, response.body).toBe(451);
    expect(response.json()).toEqual({ message: BLOCKED_COUNTRY_MESSAGE, code: 'BLOCKED_COUNTRY' });
  };

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: '1' });
    ada = await registerVerifiedCustomer(t, 'ada.places@example.com');
    admin = await logIn(t, 'admin@offzero.local');
  });
  afterAll(async () => t.close());

  it.each(Object.entries(IPS))(
    'refuses registration, login, quotes, order save and payouts from %s',
    async (_c, ip) => {
      const calls = [
        { method: 'POST', url: '/api/verification/email/otp', payload: { email: 'new.places@example.com' } },
        {
          method: 'POST',
          url: '/api/verification/verify/otp',
          payload: { email: 'new.places@example.com', code: '123456' },
        },
        { method: 'POST', url: '/api/user/login-otp/send', payload: { email: ada.email } },
        { method: 'POST', url: '/api/user/login-otp/verify', payload: { email: ada.email, code: '123456' } },
        { method: 'GET', url: '/api/price' },
        { method: 'POST', url: '/api/quotes', headers: ada.auth, payload: { type: 'buy', value: 100 } },
        {
          method: 'POST',
          url: '/api/order/save',
          headers: ada.auth,
          payload: await buyOrderPayload(t, ada, 100),
        },
        {
          method: 'POST',
          url: '/api/order/update',
          headers: ada.auth,
          payload: { _id: '00000000-0000-4000-8000-000000000000', status: 'processing' },
        },
        {
          method: 'POST',
          url: '/api/admin/orders/00000000-0000-4000-8000-000000000000/payout-btc',
          headers: admin.auth,
          payload: { txid: 'ab'.repeat(32) },
        },
        {
          method: 'POST',
          url: '/api/admin/orders/00000000-0000-4000-8000-000000000000/payout-usd',
          headers: admin.auth,
          payload: { reference: 'R1' },
        },
        {
          method: 'POST',
          url: '/api/admin/orders/00000000-0000-4000-8000-000000000000/send-btc',
          headers: admin.auth,
        },
      ] as const;
      for (const call of calls) {
        const headers = { ...('headers' in call ? call.headers : {}), ...from(ip) };
        expectBlocked(await t.request({ ...call, headers }));
      }
    },
  );

  it('serves the same calls from an allowed country, and reads from a blocked one', async () => {
    expect((await t.request({ method: 'GET', url: '/api/price', headers: from(US_IP) })).statusCode).toBe(
      200,
    );
    const quote = await t.request({
      method: 'POST',
      url: '/api/quotes',
      headers: { ...ada.auth, ...from(US_IP) },
      payload: { type: 'buy', value: 100 },
    });
    expect(quote.statusCode, quote.body).toBe(200);
    const saved = await t.request({
      method: 'POST',
      url: '/api/order/save',
      headers: { ...ada.auth, ...from(US_IP) },
      payload: await buyOrderPayload(t, ada, 100),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    // Reading one's own orders is not one of the blocked calls.
    const list = await t.request({
      method: 'GET',
      url: `/api/order/list?userId=${ada.userId}`,
      headers: { ...ada.auth, ...from(IPS.IR) },
    });
    expect(list.statusCode).toBe(200);
  });

  it('documents the 451 answer in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(doc.paths['/api/order/save'].post.responses).toHaveProperty('451');
    expect(doc.paths['/api/order/list'].get.responses).not.toHaveProperty('451');
  });
});

describe('blocked places without a trusted proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('ignores a forged X-Forwarded-For: the client is who connected', async () => {
    for (const ip of Object.values(IPS)) {
      const price = await t.request({ method: 'GET', url: '/api/price', headers: { 'x-forwarded-for': ip } });
      expect(price.statusCode).toBe(200);
      const send = await t.request({
        method: 'POST',
        url: '/api/user/login-otp/send',
        headers: { 'x-forwarded-for': ip },
        // One address per try: the same e-mail may ask for a code only so often.
        payload: { email: `someone.${ip.replaceAll('.', '-')}@example.com` },
      });
      expect(send.statusCode).toBe(200);
    }
  });

  it('blocks by the address that connected', async () => {
    const price = await t.request({ method: 'GET', url: '/api/price', remoteAddress: IPS.KP });
    expect(price.statusCode).toBe(451);
  });

  it("blocks a blocked country's IPv4 client that connected over IPv6, however its address is written", async () => {
    // 175.45.176.1 (North Korea) is af2d:b001 in the last two groups.
    for (const remoteAddress of ['0:0:0:0:0:ffff:af2d:b001', '::FFFF:175.45.176.1']) {
      const price = await t.request({ method: 'GET', url: '/api/price', remoteAddress });
      expect(price.statusCode, remoteAddress).toBe(451);
    }
  });
});
