import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findGlobalSettings } from '../settings/global-settings.repository';
import { registerVerifiedCustomer } from '../test/accounts-helpers';
import { adminAuth } from '../test/plan-helpers';
import { createTestApp, type TestApp } from '../test/test-app';

let t: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await adminAuth(t);
});
afterAll(async () => t.close());

const current = async (headers: Record<string, string>) =>
  (await t.app.inject({ method: 'GET', url: '/api/admin/settings', headers })).json().settings;
const put = (payload: object) =>
  t.request({ method: 'PUT', url: '/api/admin/settings', headers: admin, payload });

describe('recurring.hold_days in the back-office settings (docs/design.md, "Recurring buys")', () => {
  it('is shown to staff, refused outside whole days 0–30 naming the field, and saved when right', async () => {
    const base = await current(admin);
    expect(base.recurring).toEqual({
      hold_days: (await findGlobalSettings(t.database.db)).recurringHoldDays,
    });
    for (const holdDays of [-1, 31, 1.5]) {
      const response = await put({ ...base, recurring: { hold_days: holdDays } });
      expect(response.statusCode, String(holdDays)).toBe(400);
      expect(response.json().errors?.['recurring.hold_days']).toBe(
        'Enter the hold in whole business days, from 0 to 30.',
      );
    }
    expect((await put({ ...base, recurring: { hold_days: '3' } })).statusCode).toBe(400);
    expect(await current(admin)).toEqual(base);

    expect((await put({ ...base, recurring: { hold_days: 5 } })).statusCode).toBe(200);
    expect((await findGlobalSettings(t.database.db)).recurringHoldDays).toBe(5);
    // Left out, it stays as it is.
    const { recurring: _left, ...withoutRecurring } = base;
    expect((await put({ ...withoutRecurring })).statusCode).toBe(200);
    expect((await findGlobalSettings(t.database.db)).recurringHoldDays).toBe(5);
  });

  it('is not shown to a customer', async () => {
    const ada = await registerVerifiedCustomer(t, 'ada.hold-days@example.com');
    const seen = await t.app.inject({ method: 'GET', url: '/api/admin/settings', headers: ada.auth });
    expect(seen.json().settings?.recurring).toBeUndefined();
  });
});
