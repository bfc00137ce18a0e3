import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logIn, registerVerifiedCustomer, type RegisteredCustomer } from '../../test/accounts-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { findGlobalSettings } from '../../settings/global-settings.repository';

/**
 * The settings group `lightning` (docs/design.md, "Lightning"): its switch and caps in whole satoshis,
 * edited by staff in the back office, refused with words when they make no sense.
 */
let t: TestApp;
let admin: RegisteredCustomer;
let ada: RegisteredCustomer;

beforeAll(async () => {
  t = await createTestApp();
  admin = await logIn(t, 'admin@offzero.local');
  ada = await registerVerifiedCustomer(t, 'ada.lightning.settings@example.com');
});
afterAll(async () => t.close());

type Settings = Record<string, unknown> & {
  lightning: {
    is_active: boolean;
    max_order_sats: number;
    max_payout_sats: number;
    daily_payout_sats: number;
  };
};
const current = async () =>
  (await t.app.inject({ method: 'GET', url: '/api/admin/settings', headers: admin.auth })).json<{
    settings: Settings;
  }>().settings;
const put = (who: RegisteredCustomer, payload: object) =>
  t.request({ method: 'PUT', url: '/api/admin/settings', headers: who.auth, payload });

describe('the settings group lightning', () => {
  it('shows the defaults to staff and saves new caps and the switch', async () => {
    const base = await current();
    expect(base.lightning).toEqual({
      is_active: true,
      max_order_sats: 5_000_000,
      max_payout_sats: 5_000_000,
      daily_payout_sats: 50_000_000,
    });
    const lightning = {
      is_active: false,
      max_order_sats: 2_000_000,
      max_payout_sats: 1_000_000,
      daily_payout_sats: 9_000_000,
    };
    const saved = await put(admin, { ...base, lightning });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await current()).lightning).toEqual(lightning);
    expect(await findGlobalSettings(t.database.db)).toMatchObject({
      lightningActive: false,
      lightningMaxOrderSats: 2_000_000n,
      lightningMaxPayoutSats: 1_000_000n,
      lightningDailyPayoutSats: 9_000_000n,
    });
    // Left out: left as it is.
    const { lightning: _left, ...rest } = await current();
    expect((await put(admin, rest)).statusCode).toBe(200);
    expect((await current()).lightning).toEqual(lightning);
    expect((await put(admin, base)).statusCode).toBe(200);
  });

  it.each([
    ['a payout cap above the daily cap', { max_payout_sats: 60_000_000 }, 'lightning.max_payout_sats'],
    ['zero', { max_order_sats: 0 }, 'lightning.max_order_sats'],
    ['a fraction of a satoshi', { daily_payout_sats: 1.5 }, 'lightning.daily_payout_sats'],
    ['more than all bitcoin', { max_order_sats: 2_100_000_000_000_001 }, 'lightning.max_order_sats'],
  ])('refuses %s with words on the field, nothing saved', async (_name, change, path) => {
    const base = await current();
    const refused = await put(admin, { ...base, lightning: { ...base.lightning, ...change } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ errors?: Record<string, string> }>().errors?.[path]).toEqual(expect.any(String));
    expect(await current()).toEqual(base);
  });

  it('is for staff only', async () => {
    const base = await current();
    expect((await put(ada, { ...base, lightning: { ...base.lightning, is_active: false } })).statusCode).toBe(
      403,
    );
  });
});
