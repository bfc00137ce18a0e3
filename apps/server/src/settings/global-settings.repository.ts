import { eq } from 'drizzle-orm';
import type { Database, Transaction } from '../db/database';
import { globalSettings, type GlobalSettingsRow } from '../db/schema';

type NewSettings = typeof globalSettings.$inferInsert;

/** Demo mode pays into clearly fictional accounts so that a person trying the demo sees real-looking details. */
const demoDefaults: NewSettings = {
  platformFeeBps: 150,
  minOrderCents: 2_000n,
  maxOrderCents: 1_000_000n,
  orderSessionTimeoutSeconds: 900,
  paypalActive: true,
  zelleActive: true,
  zellePaymentAddress: 'payments@offzero.example',
  zelleBankChargesCents: 0n,
  achActive: true,
  achAccountHolder: 'OffZero Demo Payments LLC',
  achAccountNumber: '000123456789',
  achBankAddress: 'Demo Bank, N.A., 100 Example Street, Cheyenne, WY 82001',
  achRoutingNumber: '123456780',
  achBankChargesCents: 100n,
  wireActive: true,
  wireAccountHolder: 'OffZero Demo Payments LLC',
  wireAccountNumber: '000123456789',
  wireBankAddress: 'Demo Bank, N.A., 100 Example Street, Cheyenne, WY 82001',
  wireSwiftCode: 'DEMOUS33XXX',
  wireBankChargesCents: 2_500n,
  instantActive: true,
  instantBankChargesCents: 50n,
  instantMaxPayoutCents: 2_500_000n,
  referralRewardBps: 1_000,
  referralTradesEligible: 5,
  // A settled demo debit releases its bitcoin at once (docs/design.md, "Recurring buys").
  recurringHoldDays: 0,
};

/** Production starts with every payment method switched off and no receiving details: the operator
 * enters the company's real accounts in the back office before customers can pay. */
const productionDefaults: NewSettings = {
  ...demoDefaults,
  paypalActive: false,
  zelleActive: false,
  zellePaymentAddress: '',
  achActive: false,
  achAccountHolder: '',
  achAccountNumber: '',
  achBankAddress: '',
  achRoutingNumber: '',
  wireActive: false,
  wireAccountHolder: '',
  wireAccountNumber: '',
  wireBankAddress: '',
  wireSwiftCode: '',
  instantActive: false,
  recurringHoldDays: 3,
};

/** Creates the settings row on first start; an existing row is never overwritten. */
export async function seedGlobalSettings(db: Database, mode: 'demo' | 'production'): Promise<void> {
  const defaults = mode === 'demo' ? demoDefaults : productionDefaults;
  await db
    .insert(globalSettings)
    .values({ ...defaults, id: 1 })
    .onConflictDoNothing({ target: globalSettings.id });
}

export async function findGlobalSettings(db: Database): Promise<GlobalSettingsRow> {
  const [row] = await db.select().from(globalSettings).where(eq(globalSettings.id, 1));
  if (!row) throw new Error('Global settings are missing: the database was not seeded');
  return row;
}

export type GlobalSettingsChange = Partial<Omit<NewSettings, 'id'>>;

/** The settings row as it is now, locked until the caller's transaction ends. */
export async function lockGlobalSettings(tx: Transaction): Promise<GlobalSettingsRow> {
  const [row] = await tx.select().from(globalSettings).where(eq(globalSettings.id, 1)).for('update');
  if (!row) throw new Error('Global settings are missing: the database was not seeded');
  return row;
}

export async function saveGlobalSettings(
  tx: Transaction,
  change: GlobalSettingsChange,
): Promise<GlobalSettingsRow> {
  const [updated] = await tx.update(globalSettings).set(change).where(eq(globalSettings.id, 1)).returning();
  if (!updated) throw new Error('Global settings are missing: the database was not seeded');
  return updated;
}
