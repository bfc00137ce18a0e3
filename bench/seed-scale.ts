/**
 * `npm run seed:scale -- --customers N --orders M [--seed S]`: fills the PostgreSQL database of
 * DATABASE_URL (migrated first if needed) with N customers and M orders of every type, status and rail
 * (apps/server/src/scale/seed-scale.ts). The same seed writes the same rows; a database that already
 * holds this seed's customers is refused (use another seed, or a new database).
 */
import { parseArgs } from 'node:util';
import { like } from 'drizzle-orm';
import { openDatabase } from '../apps/server/src/db/database';
import { users } from '../apps/server/src/db/schema';
import { seedEmailDomain, seedScale } from '../apps/server/src/scale/seed-scale';

const { values } = parseArgs({
  options: {
    customers: { type: 'string', default: '100000' },
    orders: { type: 'string', default: '1000000' },
    seed: { type: 'string', default: '1' },
  },
});
const count = (name: string, text: string | undefined) => {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1)
    throw new Error(`--${name} must be a whole number of 1 or more`);
  return value;
};
const shape = {
  customers: count('customers', values.customers),
  orders: count('orders', values.orders),
  seed: count('seed', values.seed),
};
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('Set DATABASE_URL to the PostgreSQL database to fill.');

const database = await openDatabase({ databaseUrl, dataDir: null });
try {
  const [already] = await database.db
    .select({ id: users.id })
    .from(users)
    .where(like(users.email, `%@${seedEmailDomain(shape.seed)}`))
    .limit(1);
  if (already)
    throw new Error(`This database already holds seed ${shape.seed}: use another --seed or database.`);
  console.log(`Seeding ${shape.customers} customers and ${shape.orders} orders (seed ${shape.seed})…`);
  const started = performance.now();
  await seedScale(database.db, shape, (message) => console.log(`  ${message}`));
  console.log(`Done in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
} finally {
  await database.close();
}
