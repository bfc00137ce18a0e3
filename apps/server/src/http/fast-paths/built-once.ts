import { sql, type Query, type SQL } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/database';

/**
 * Statements whose SQL is built once per process and run again with each call's values.
 *
 * A fast path: it reaches Drizzle's session (`db._.session.prepareQuery`), not public API, to run an
 * already built statement on whichever database or transaction it is given. It serves the target
 * `POST /api/order/save ≥ 50 % of the same inserts` (docs/performance.md, API); drop it for the
 * builder's own `.prepare()` if `npm run bench` shows the target met without it.
 *
 * The query builder writes a statement's text on every call, and for the short statements of the
 * order save that costs more than running them (building the order insert, 34 columns, takes about
 * half a millisecond). A statement made with `builtOnce` is built the first time it runs, with a
 * `param(name)` wherever a value goes, and every later call sends the same text with new values.
 *
 * On PostgreSQL each one is also a named prepared statement: a connection parses and plans it once
 * and later calls send only its values (the save's statements were parsed and planned again on every
 * call). The embedded database keeps every statement it runs by its text instead
 * (embedded-named-statements.ts).
 *
 * A value given through `param` reaches the driver as it is (bigint, Date, string, number, null, or an
 * object for a JSON column): the column's own conversion is not applied, so it suits those types only.
 */

/** A value of a statement built once: named here, given when the statement runs. */
export function param(name: string): SQL {
  return sql`${sql.placeholder(name)}`;
}

/** A select (or a statement ending in one) as the builder makes it, before it runs. */
interface BuiltSelect {
  toSQL(): Query;
  _: { selectedFields: Record<string, unknown> };
}

type Runner = Database | Transaction;

let builtCount = 0;

/** A statement built once, run on a database or a transaction with that call's values. */
export type BuiltOnce<TRow> = (db: Runner, values: Record<string, unknown>) => Promise<TRow[]>;
type PreparedRows<TRow> = { execute(values: Record<string, unknown>): Promise<TRow[]> };

/**
 * A select built once by `build` (which names its values with `param`), run on the database or the
 * transaction it is given with that call's values; its rows are read as the builder's would be.
 */
export function builtOnce<TRow>(build: (db: Runner) => BuiltSelect): BuiltOnce<TRow> {
  // One name per statement of this process: its text never changes, so a connection can keep it.
  const name = `offzero_built_once_${(builtCount += 1)}`;
  let built: { query: Query; fields: { path: string[]; field: unknown }[] } | undefined;
  return (db, values) => {
    if (!built) {
      const select = build(db);
      // Each column's path in the row, as the builder lists a flat selection's fields.
      const fields = Object.entries(select._.selectedFields).map(([key, field]: [string, unknown]) => ({
        path: [key],
        field,
      }));
      built = { query: select.toSQL(), fields };
    }
    const session = db._.session as unknown as {
      prepareQuery(query: Query, fields: unknown, name: string, arrayMode: boolean): PreparedRows<TRow>;
    };
    return session.prepareQuery(built.query, built.fields, name, true).execute(values);
  };
}
