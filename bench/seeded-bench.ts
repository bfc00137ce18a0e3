/**
 * `npm run bench:seeded` (and the last part of `npm run bench` when BENCH_SEEDED_DATABASE_URL is set):
 * the customer's and the back office's routes on an empty PostgreSQL database and on the seeded one
 * (`npm run seed:scale`), side by side. Prints each route's p50 and p95 on both, their ratio and pass
 * or short against 1.3× (the cost of a call must follow its work, not the size of the tables), and the
 * exports' time and peak heap (they stream: memory stays flat however many rows). Asserts nothing.
 */
import os from 'node:os';
import { runSeededComparison } from './support/seeded-comparison';

const seededUrl = process.env.BENCH_SEEDED_DATABASE_URL;
if (!seededUrl)
  throw new Error('Set BENCH_SEEDED_DATABASE_URL to a database filled by `npm run seed:scale`.');
await runSeededComparison(seededUrl);
console.log(`\n${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}`);
process.exit(0);
