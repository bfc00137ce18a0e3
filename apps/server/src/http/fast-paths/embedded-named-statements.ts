import {
  parse,
  protocol,
  type PGlite,
  type QueryOptions,
  type Results,
  type Transaction,
} from '@electric-sql/pglite';

/*
 * A fast path: it replaces PGlite's `query` and waits through its private `_runExclusiveTransaction`.
 * It serves the target `POST /api/order/save ≥ 50 % of the same inserts` on the embedded database
 * (docs/performance.md, API); drop it if `npm run bench` shows the target met with PGlite's own query.
 */

/** How many statements the embedded database keeps prepared; the least recently used go first. */
export const EMBEDDED_KEPT_STATEMENTS = 300;

/** Statements worth keeping: those that read or write rows (not DDL, not transaction control). */
const KEEPABLE = /^\s*(select|insert|update|delete|with)\b/i;

/** PostgreSQL refuses a kept statement whose table changed shape under it (feature_not_supported). */
function planChanged(error: unknown): boolean {
  const { code, message } = error as { code?: string; message?: string };
  return code === '0A000' && /cached plan must not change result type/.test(message ?? '');
}

interface KeptStatement {
  name: string;
  /** Each parameter's type, which says how its value is written. */
  parameterTypes: number[];
  /** The rows' description, read once: every later run answers rows of the same shape. */
  rowDescription: Messages;
}

type Messages = Awaited<ReturnType<PGlite['execProtocol']>>['messages'];
type BindValue = NonNullable<Parameters<typeof protocol.serialize.bind>[0]>['values'] extends
  (infer V)[] | undefined
  ? V
  : never;

type Query = <T>(query: string, params?: unknown[], options?: QueryOptions) => Promise<Results<T>>;

/**
 * Every statement that reads or writes rows becomes a named prepared statement of the embedded
 * database's one session, kept by its text: it is parsed, analysed and described once, and each later
 * run sends only its values (bind, execute, sync). PGlite's own `query` parses and describes every
 * statement again, in six calls into the database where a kept one needs three; a short insert runs in
 * half the time. The app's statements are few and their texts fixed (the query builder writes the same
 * text for the same statement), so at most EMBEDDED_KEPT_STATEMENTS are kept, the least recently used
 * closed first. Replaces `query` on the client and on each transaction it opens; anything else, and a
 * statement whose table has changed shape since, goes through PGlite's own.
 */
export function keepNamedStatements(client: PGlite, keep = EMBEDDED_KEPT_STATEMENTS): void {
  const kept = new Map<string, KeptStatement>();
  let named = 0;
  const plainQuery: Query = client.query.bind(client);
  const plainTransaction = client.transaction.bind(client);

  const send = (message: Uint8Array) => client.execProtocol(message, { syncToFs: false });

  /** Closes the least recently used statements beyond the bound (the map keeps the order of use). */
  const closeOldest = async (): Promise<void> => {
    for (const [text, statement] of kept) {
      if (kept.size <= keep) return;
      kept.delete(text);
      try {
        await send(protocol.serialize.close({ type: 'S', name: statement.name }));
      } finally {
        await send(protocol.serialize.sync());
      }
    }
  };

  /** Runs `text` as a kept statement; its caller holds the session (runExclusive). */
  const runKept = async <T>(text: string, params: unknown[], options?: QueryOptions) => {
    const messages: Messages = [];
    let statement = kept.get(text);
    try {
      if (statement) {
        // Most recently used last.
        kept.delete(text);
        kept.set(text, statement);
      } else {
        const name = `offzero_kept_${(named += 1)}`;
        await send(protocol.serialize.parse({ name, text, types: options?.paramTypes }));
        const described = await send(protocol.serialize.describe({ type: 'S', name }));
        const rowDescription = described.messages.filter((message) => message.name === 'rowDescription');
        statement = {
          name,
          parameterTypes: parse.parseDescribeStatementResults(described.messages),
          rowDescription,
        };
        kept.set(text, statement);
      }
      const values = params.map((value, index) => writeValue(client, statement!, value, index, options));
      await send(protocol.serialize.bind({ statement: statement.name, values }));
      messages.push(...statement.rowDescription);
      messages.push(...(await send(protocol.serialize.execute({}))).messages);
    } catch (error) {
      throw Object.assign(error as Error, { query: text, params, queryOptions: options });
    } finally {
      await send(protocol.serialize.sync());
    }
    if (!client.isInTransaction()) await client.syncToFs();
    return parse.parseResults(messages, client.parsers, options)[0] as Results<T>;
  };

  /** A kept statement, or PGlite's own query when the statement is not one to keep or went stale. */
  const query =
    (plain: Query, exclusive: <R>(run: () => Promise<R>) => Promise<R>): Query =>
    async <T>(text: string, params: unknown[] = [], options?: QueryOptions) => {
      if (!KEEPABLE.test(text) || options?.blob) return plain<T>(text, params, options);
      try {
        return await exclusive(async () => {
          const results = await runKept<T>(text, params, options);
          if (kept.size > keep) await closeOldest();
          return results;
        });
      } catch (error) {
        if (!planChanged(error)) throw error;
        // A migration changed a table this statement reads: prepare it afresh on its next run. A call
        // that ran the same stale statement at the same time finds it already forgotten.
        const stale = kept.get(text);
        if (stale) {
          kept.delete(text);
          await exclusive(async () => {
            try {
              await send(protocol.serialize.close({ type: 'S', name: stale.name }));
            } finally {
              await send(protocol.serialize.sync());
            }
          });
        }
        // Inside a transaction the failure has ended it: the caller sees it, as it would any other.
        if (client.isInTransaction()) throw error;
        return plain<T>(text, params, options);
      }
    };

  const inSession = <R>(run: () => Promise<R>) => client.runExclusive(run);
  // Outside a transaction, a statement also waits for any transaction in progress, as PGlite's does.
  client.query = query(plainQuery, async (run) => {
    await client.waitReady;
    return client._runExclusiveTransaction(() => inSession(run));
  });
  client.transaction = <T>(callback: (tx: Transaction) => Promise<T>) =>
    plainTransaction((tx) => {
      const plainTxQuery: Query = tx.query.bind(tx);
      tx.query = query(plainTxQuery, inSession);
      return callback(tx);
    });
}

/** A value as PGlite writes it for a parameter of this type (its `query` does the same). */
function writeValue(
  client: PGlite,
  statement: KeptStatement,
  value: unknown,
  index: number,
  options?: QueryOptions,
): BindValue {
  if (value === null || value === undefined) return null;
  const type = statement.parameterTypes[index]!;
  const serialize = options?.serializers?.[type] ?? client.serializers[type];
  if (serialize) return serialize(value);
  // PGlite's own fallback for a type it has no writer for.
  return (value as { toString(): string }).toString();
}
