import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_ARRIVAL_TIMING,
  fullGlobalSettingsSchema,
  publicGlobalSettingsSchema,
} from '@offzero/shared/api/global-settings';
import { users } from '../db/schema';
import { createTestApp, createTestDatabase, type TestApp } from '../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('GET /api/admin/settings', () => {
  it('gives visitors the limits, fees, switches and referral terms, but no bank details', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/admin/settings' });
    expect(response.statusCode).toBe(200);
    const { settings } = response.json();
    expect(publicGlobalSettingsSchema.strict().safeParse(settings).success).toBe(true);
    expect(settings).toEqual({
      order: { platform_fees: 1.5, min_order_size: 20, max_order_size: 10000, order_session_timeout: 900 },
      paypal: { is_active: true },
      zelle: { is_active: true },
      ach: { is_active: true },
      wire: { is_active: true },
      instant: { is_active: true },
      referral: { reward: 10, trades_eligible: 5 },
      arrival: DEFAULT_ARRIVAL_TIMING,
    });
    expect(response.body).not.toContain('account_number');
  });

  it('gives a signed-in customer the receiving details of every method', async () => {
    const [user] = await t.database.db
      .insert(users)
      .values({ email: 'settings@example.com', emailVerified: true })
      .returning();
    const { token } = await t.app.sessions.issue(user!.id);
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/admin/settings',
      headers: { authorization: `Bearer ${token}` },
    });
    const { settings } = response.json();
    expect(fullGlobalSettingsSchema.safeParse(settings).success).toBe(true);
    expect(settings.zelle).toEqual({
      is_active: true,
      payment_address: 'payments@offzero.example',
      bank_charges: 0,
    });
    expect(settings.ach.routing_number).toBe('123456780');
    expect(settings.ach.bank_charges).toBe(1);
    expect(settings.wire.swift_code).toBe('DEMOUS33XXX');
    expect(settings.wire.bank_charges).toBe(25);
  });

  it('treats a forged token as a visitor: the public settings, without the receiving details held', async () => {
    // The details are there to leak: the stored Zelle address a signed-in customer is shown.
    const { findGlobalSettings } = await import('./global-settings.repository');
    expect((await findGlobalSettings(t.database.db)).zellePaymentAddress).toBe('payments@offzero.example');
    const visitor = await t.app.inject({ method: 'GET', url: '/api/admin/settings' });
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/admin/settings',
      headers: { authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJfaWQiOiJ4In0.' },
    });
    expect(response.statusCode).toBe(200);
    const { settings } = response.json();
    // A real, populated answer: the visitor's, limits, fees and switches included.
    expect(settings).toEqual(visitor.json().settings);
    expect(settings.order.min_order_size).toBe(20);
    expect(settings.zelle).toEqual({ is_active: true });
    expect(response.body).not.toContain('payments@offzero.example');
    expect(response.body).not.toContain('payment_address');
  });
});

describe('production defaults', () => {
  it('starts production with every payment method off and no receiving details', async () => {
    const { seedGlobalSettings, findGlobalSettings } = await import('./global-settings.repository');
    // A database of its own, unseeded (the migrated copy every test database starts from).
    const { handle, drop } = await createTestDatabase();
    await seedGlobalSettings(handle.db, 'production');
    const row = await findGlobalSettings(handle.db);
    expect([row.paypalActive, row.zelleActive, row.achActive, row.wireActive]).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(row.zellePaymentAddress).toBe('');
    await handle.close();
    await drop();
  });
});
