import { PGlite, type Results } from '@electric-sql/pglite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keepNamedStatements } from './embedded-named-statements';

// The embedded database's kept statements (embedded-named-statements.ts) must answer exactly as
// PGlite's own query does, keep the session usable after an error and never let a statement slip into
// another caller's transaction.
// PGlite of its own: run once, in the embedded database's suite.
const IS_POSTGRES = process.env.TEST_DATABASE_KIND === 'postgres';
let client: PGlite;
let plainQuery: PGlite['query'];

const kept = async (): Promise<{ name: string; statement: string }[]> => {
  const [result] = await client.exec(
    "select name, statement from pg_prepared_statements where name like 'offzero_kept_%' order by name",
  );
  return result!.rows as { name: string; statement: string }[];
};

beforeEach(async () => {
  if (IS_POSTGRES) return;
  client = await PGlite.create();
  await client.exec(`create table items (
    id serial primary key, label text unique not null, sats bigint, price numeric(20, 8),
    at timestamptz, details jsonb, active boolean, note text)`);
  plainQuery = client.query.bind(client);
  keepNamedStatements(client, 3);
});
afterEach(async () => {
  if (!IS_POSTGRES) await client.close();
});

const INSERT =
  'insert into items (label, sats, price, at, details, active, note) values ($1, $2, $3, $4, $5, $6, $7) returning *';

describe.skipIf(IS_POSTGRES)('a kept statement on the embedded database', () => {
  it('answers rows of every kind of value as PGlite’s own query does, and is prepared once', async () => {
    const at = new Date('2026-11-23T10:00:00.123Z');
    for (const rowMode of ['object', 'array'] as const) {
      const values = [
        `a-${rowMode}`,
        2_100_000_000_000_000n,
        '0.00002017',
        at,
        { k: [1, 'two'] },
        true,
        null,
      ];
      const ours = await client.query(INSERT, values, { rowMode });
      const again = await client.query(INSERT, [`b-${rowMode}`, ...values.slice(1)], { rowMode });
      const theirs = await plainQuery(INSERT, [`c-${rowMode}`, ...values.slice(1)], { rowMode });
      const withoutIds = (result: Results<unknown>) =>
        result.rows.map((row) =>
          Array.isArray(row) ? row.slice(2) : { ...(row as object), id: 0, label: '' },
        );
      expect(withoutIds(ours)).toEqual(withoutIds(theirs));
      expect(withoutIds(again)).toEqual(withoutIds(theirs));
      expect(ours.fields).toEqual(theirs.fields);
      expect(ours.affectedRows).toBe(1);
    }
    const select = 'select label, sats, details from items where active = $1 order by id';
    const first = await client.query(select, [true]);
    expect(await client.query(select, [true])).toEqual(first);
    expect(first.rows).toHaveLength(6);
    expect(first).toEqual(await plainQuery(select, [true]));
    expect(first.rows[0]).toMatchObject({ label: 'a-object', details: { k: [1, 'two'] } });
    // One prepared statement per text, however often it ran.
    expect((await kept()).map((row) => row.statement).sort()).toEqual([INSERT, select].sort());
  });

  it('keeps only the most recently used statements', async () => {
    for (let n = 1; n <= 5; n += 1) await client.query(`select $1::int + ${n} as total`, [n]);
    await client.query('select $1::int + 4 as total', [1]);
    expect((await kept()).map((row) => row.statement).sort()).toEqual([
      'select $1::int + 3 as total',
      'select $1::int + 4 as total',
      'select $1::int + 5 as total',
    ]);
    expect(await kept()).toHaveLength(3);
    // A closed one is prepared again when it comes back.
    expect((await client.query<{ total: number }>('select $1::int + 1 as total', [1])).rows).toEqual([
      { total: 2 },
    ]);
  });

  it('reports a refused statement with its code and leaves the session usable', async () => {
    await client.query(INSERT, ['same', 1n, '1', new Date(), {}, true, null]);
    const refused = client.query(INSERT, ['same', 2n, '1', new Date(), {}, true, null]);
    await expect(refused).rejects.toMatchObject({ code: '23505', query: INSERT });
    const count = 'select count(*)::int as count from items where sats > $1';
    expect((await client.query(count, [0n])).rows).toEqual([{ count: 1 }]);
  });

  it('writes nothing of a transaction that rolls back, and a failed statement ends it', async () => {
    await expect(
      client.transaction(async (tx) => {
        await tx.query(INSERT, ['in-tx', 1n, '1', new Date(), {}, true, null]);
        await tx.query(INSERT, ['in-tx', 1n, '1', new Date(), {}, true, null]);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect((await client.query('select label from items where label = $1', ['in-tx'])).rows).toEqual([]);
    await client.transaction(async (tx) => {
      await tx.query(INSERT, ['committed', 1n, '1', new Date(), {}, true, null]);
    });
    expect((await client.query('select label from items where label = $1', ['committed'])).rows).toHaveLength(
      1,
    );
  });

  it('waits for a transaction in progress before it runs, so it never reads or writes inside it', async () => {
    let finish!: () => void;
    const held = new Promise<void>((resolve) => (finish = resolve));
    let inserted!: () => void;
    const insertedInside = new Promise<void>((resolve) => (inserted = resolve));
    const transaction = client.transaction(async (tx) => {
      await tx.query(INSERT, ['uncommitted', 1n, '1', new Date(), {}, true, null]);
      inserted();
      await held;
      await tx.rollback();
    });
    await insertedInside;
    let read: unknown[] | undefined;
    const outside = client
      .query('select label from items where label = $1', ['uncommitted'])
      .then((result) => {
        read = result.rows;
      });
    try {
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(read).toBeUndefined();
    } finally {
      finish();
    }
    await transaction;
    await outside;
    expect(read).toEqual([]);
  });

  it('answers each of many concurrent calls with its own values', async () => {
    const totals = await Promise.all(
      Array.from({ length: 40 }, (_, n) =>
        client.query<{ total: number }>('select $1::int * 2 as total', [n]),
      ),
    );
    expect(totals.map((result) => result.rows[0]!.total)).toEqual(
      Array.from({ length: 40 }, (_, n) => n * 2),
    );
  });

  it('prepares a statement again when its table has changed shape', async () => {
    const all = 'select * from items where id > $1';
    await client.query(INSERT, ['before', 1n, '1', new Date(), {}, true, null]);
    expect(Object.keys((await client.query(all, [0])).rows[0] as object)).not.toContain('extra');
    await client.exec("alter table items add column extra text default 'x'");
    const after = await client.query(all, [0]);
    expect(after.rows[0]).toMatchObject({ label: 'before', extra: 'x' });
    expect((await client.query(all, [0])).rows[0]).toMatchObject({ extra: 'x' });
    // Two calls running the stale statement at once both answer with the new shape.
    await client.exec("alter table items add column more text default 'y'");
    const both = await Promise.all([client.query(all, [0]), client.query(all, [0])]);
    for (const result of both) expect(result.rows[0]).toMatchObject({ extra: 'x', more: 'y' });
  });

  it('leaves statements that are not reads or writes to PGlite', async () => {
    await client.query('create table other (id int)');
    await client.query('select 1 as one');
    expect((await kept()).map((row) => row.statement)).toEqual(['select 1 as one']);
  });
});
