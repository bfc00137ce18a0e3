import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { basisPointsFromPercent, MoneyParseError, usdNumberToCents } from '@offzero/shared/money/money';
import { globalSettings } from '../db/schema';
import { requireAdmin, signedInUser } from '../auth/sessions';
import { AppError } from '../http/errors';
import { findGlobalSettings } from '../settings/global-settings.repository';
import { toFullSettings } from '../settings/global-settings.presenter';
import { recordAdminAction } from './admin-audit';

const text = (max: number) => z.string().trim().max(max);
const usd = z.number().finite().min(0, { error: 'Amounts cannot be negative.' });
const percent = z
  .number()
  .finite()
  .min(0, { error: 'Percentages cannot be negative.' })
  .max(100, { error: 'A percentage cannot be above 100 %.' });

/** The editable global settings, in the units of `GET /api/admin/settings`. */
const settingsUpdateSchema = z
  .strictObject({
    order: z.strictObject({
      platform_fees: percent,
      min_order_size: usd.positive({ error: 'The minimum order must be above zero.' }),
      max_order_size: usd.positive(),
      order_session_timeout: z
        .number()
        .int()
        .min(60, { error: 'Lock quotes for at least 60 seconds.' })
        .max(86_400),
    }),
    paypal: z.strictObject({ is_active: z.boolean() }),
    zelle: z.strictObject({ is_active: z.boolean(), payment_address: text(254), bank_charges: usd }),
    ach: z.strictObject({
      is_active: z.boolean(),
      account_holder: text(100),
      account_number: text(34),
      bank_address: text(200),
      routing_number: z
        .string()
        .trim()
        .regex(/^(\d{9})?$/, { error: 'A routing number has 9 digits.' }),
      bank_charges: usd,
    }),
    wire: z.strictObject({
      is_active: z.boolean(),
      account_holder: text(100),
      account_number: text(34),
      bank_address: text(200),
      swift_code: z
        .string()
        .trim()
        .toUpperCase()
        .regex(/^([A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?)?$/, { error: 'A SWIFT code has 8 or 11 characters.' }),
      bank_charges: usd,
    }),
    referral: z.strictObject({ reward: percent, trades_eligible: z.number().int().min(0).max(1000) }),
  })
  .superRefine((s, ctx) => {
    if (s.order.min_order_size >= s.order.max_order_size) {
      ctx.addIssue({
        code: 'custom',
        path: ['order', 'min_order_size'],
        message: 'The minimum order must be below the maximum.',
      });
    }
    if (s.zelle.is_active && !s.zelle.payment_address) {
      ctx.addIssue({
        code: 'custom',
        path: ['zelle', 'payment_address'],
        message: 'Zelle needs the address customers pay to.',
      });
    }
    if (
      s.ach.is_active &&
      (!s.ach.account_holder || !s.ach.account_number || !s.ach.routing_number || !s.ach.bank_address)
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['ach'],
        message: 'ACH needs the account holder, account number, routing number and bank.',
      });
    }
    if (
      s.wire.is_active &&
      (!s.wire.account_holder || !s.wire.account_number || !s.wire.swift_code || !s.wire.bank_address)
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['wire'],
        message: 'Wire needs the account holder, account number, SWIFT code and bank.',
      });
    }
  });

/** `PUT /api/admin/settings`: validated, audited, and in force for the next quote. */
export const adminSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  app.put(
    '/api/admin/settings',
    { onRequest: requireAdmin(app), schema: { body: settingsUpdateSchema } },
    async (request) => {
      const s = request.body;
      let values;
      try {
        values = {
          platformFeeBps: basisPointsFromPercent(s.order.platform_fees),
          minOrderCents: usdNumberToCents(s.order.min_order_size),
          maxOrderCents: usdNumberToCents(s.order.max_order_size),
          orderSessionTimeoutSeconds: s.order.order_session_timeout,
          paypalActive: s.paypal.is_active,
          zelleActive: s.zelle.is_active,
          zellePaymentAddress: s.zelle.payment_address,
          zelleBankChargesCents: usdNumberToCents(s.zelle.bank_charges),
          achActive: s.ach.is_active,
          achAccountHolder: s.ach.account_holder,
          achAccountNumber: s.ach.account_number,
          achBankAddress: s.ach.bank_address,
          achRoutingNumber: s.ach.routing_number,
          achBankChargesCents: usdNumberToCents(s.ach.bank_charges),
          wireActive: s.wire.is_active,
          wireAccountHolder: s.wire.account_holder,
          wireAccountNumber: s.wire.account_number,
          wireBankAddress: s.wire.bank_address,
          wireSwiftCode: s.wire.swift_code,
          wireBankChargesCents: usdNumberToCents(s.wire.bank_charges),
          referralRewardBps: basisPointsFromPercent(s.referral.reward),
          referralTradesEligible: s.referral.trades_eligible,
          updatedAt: new Date(),
        };
      } catch (error) {
        if (error instanceof MoneyParseError) throw new AppError('BAD_REQUEST', error.message);
        throw error;
      }
      const before = await findGlobalSettings(db);
      const after = await db.transaction(async (tx) => {
        const [updated] = await tx
          .update(globalSettings)
          .set(values)
          .where(eq(globalSettings.id, 1))
          .returning();
        if (!updated) throw new Error('settings row missing');
        await recordAdminAction(tx, signedInUser(request), {
          action: 'settings.update',
          targetType: 'settings',
          targetId: 'global',
          before: toFullSettings(before),
          after: toFullSettings(updated),
        });
        return updated;
      });
      return { message: 'Settings saved. New quotes use them now.', settings: toFullSettings(after) };
    },
  );
};
