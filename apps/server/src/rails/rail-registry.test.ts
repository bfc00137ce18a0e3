import { RAILS } from '@offzero/shared/rails/rails';
import { describe, expect, it } from 'vitest';
import type { GlobalSettingsRow, UserSettingsRow } from '../db/schema';
import { activeRails, activeSellPayoutRail, findRailHandler, railHandler } from './rail-registry';

/** Settings whose every figure is distinct, so a rail reading another rail's field shows. */
const settings = {
  paypalActive: true,
  zelleActive: true,
  zellePaymentAddress: 'pay@example.com',
  zelleBankChargesCents: 11n,
  achActive: true,
  achAccountHolder: 'ACH Holder',
  achAccountNumber: '111',
  achBankAddress: 'ACH Street',
  achRoutingNumber: '222',
  achBankChargesCents: 22n,
  wireActive: true,
  wireAccountHolder: 'Wire Holder',
  wireAccountNumber: '333',
  wireBankAddress: 'Wire Street',
  wireSwiftCode: 'SWIFTXXX',
  wireBankChargesCents: 33n,
} as GlobalSettingsRow;

describe('rail registry', () => {
  it('has exactly one handler for every rail of the shared registry, under its own id', () => {
    for (const rail of RAILS) expect(railHandler(rail.id).id).toBe(rail.id);
    const handlers = RAILS.map((rail) => railHandler(rail.id));
    expect(new Set(handlers).size).toBe(RAILS.length);
    expect(findRailHandler('cash')).toBeUndefined();
    expect(findRailHandler(undefined)).toBeUndefined();
  });

  it('gives every buy-funding rail the customer reports a copy of the receiving details', () => {
    const reported = RAILS.filter(
      (rail) =>
        (rail.directions as readonly string[]).includes('buy-funding') &&
        railHandler(rail.id).detection.kind === 'customer-reports',
    );
    expect(reported.map((rail) => rail.id)).toEqual(['zelle', 'ach', 'wire']);
    for (const rail of reported) expect(typeof railHandler(rail.id).receivingDetails).toBe('function');
    expect(railHandler('zelle').receivingDetails?.(settings)).toEqual({ payment_address: 'pay@example.com' });
    expect(railHandler('ach').receivingDetails?.(settings)).toEqual({
      account_holder: 'ACH Holder',
      account_number: '111',
      routing_number: '222',
      bank_address: 'ACH Street',
    });
    expect(railHandler('wire').receivingDetails?.(settings)).toEqual({
      account_holder: 'Wire Holder',
      account_number: '333',
      swift: 'SWIFTXXX',
      bank_address: 'Wire Street',
    });
  });

  it('refuses receiving details of a switched-off rail with the customer words', () => {
    const off = { ...settings, zelleActive: false, achActive: false, wireActive: false };
    expect(() => railHandler('zelle').receivingDetails?.(off)).toThrow(
      'Zelle is not available right now. Choose another method.',
    );
    expect(() => railHandler('ach').receivingDetails?.(off)).toThrow(
      'ACH is not available right now. Choose another method.',
    );
    expect(() => railHandler('wire').receivingDetails?.(off)).toThrow(
      'Wire transfer is not available right now. Choose another method.',
    );
  });

  it("takes a sell's charges from the rail's own settings field, and charges a buy none", () => {
    expect(railHandler('zelle').chargesCents(settings, 'sell')).toBe(11n);
    expect(railHandler('ach').chargesCents(settings, 'sell')).toBe(22n);
    expect(railHandler('wire').chargesCents(settings, 'sell')).toBe(33n);
    for (const rail of RAILS) expect(railHandler(rail.id).chargesCents(settings, 'buy')).toBe(0n);
    expect(railHandler('paypal').chargesCents(settings, 'sell')).toBe(0n);
    expect(railHandler('onchain').chargesCents(settings, 'sell')).toBe(0n);
  });

  it('lists the switched-on rails of a direction', () => {
    const ids = (direction: Parameters<typeof activeRails>[1], s = settings) =>
      activeRails(s, direction).map((handler) => handler.id);
    expect(ids('buy-funding')).toEqual(['paypal', 'zelle', 'ach', 'wire']);
    expect(ids('sell-payout')).toEqual(['zelle', 'ach', 'wire']);
    expect(ids('sell-deposit')).toEqual(['onchain']);
    expect(ids('sell-payout', { ...settings, achActive: false })).toEqual(['zelle', 'wire']);
    expect(ids('buy-funding', { ...settings, paypalActive: false })).toEqual(['zelle', 'ach', 'wire']);
    expect(activeSellPayoutRail(settings, 'paypal')).toBeUndefined();
    expect(activeSellPayoutRail({ ...settings, wireActive: false }, 'wire')).toBeUndefined();
  });

  it("names the customer's details each sell-payout rail needs", () => {
    const own = {
      accountName: 'Ann',
      accountNumber: '999',
      bankName: 'Bank',
      bankAddress: 'Road',
      routingNumber: '888',
      swift: 'SW',
      zelleEmail: 'ann@example.com',
    } as UserSettingsRow;
    expect(railHandler('zelle').sellPayout?.details(own)).toEqual({ payment_address: 'ann@example.com' });
    expect(railHandler('ach').sellPayout?.details(own)).toEqual({
      account_holder: 'Ann',
      account_number: '999',
      bank_name: 'Bank',
      bank_address: 'Road',
      routing_number: '888',
    });
    expect(railHandler('wire').sellPayout?.details({ ...own, swift: null })).toBeNull();
    expect(railHandler('wire').sellPayout?.missingDetailsMessage).toBe(
      'Add Wire transfer details in settings.',
    );
  });
  it('gives every rail that pays out exactly one payout sender, and none to a rail that only brings money in', () => {
    for (const rail of RAILS) {
      const directions: readonly string[] = rail.directions;
      const paysOut = directions.includes('sell-payout') || directions.includes('buy-payout');
      const sender = railHandler(rail.id).payoutSender;
      expect(sender !== undefined, rail.id).toBe(paysOut);
      if (sender) expect(['manual', 'automatic']).toContain(sender.mode);
    }
  });
});
