import { customType, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Raw bytes (an uploaded identity document, a webhook's body, a key). */
export const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/** A row's own id: a random UUID the database draws. */
export const idColumn = () => uuid('id').primaryKey().defaultRandom();

/** A moment, always with its time zone (the database keeps UTC). */
export const timestampTz = (name: string) => timestamp(name, { withTimezone: true });

/** When the row was written. */
export const createdAtColumn = () => timestampTz('created_at').notNull().defaultNow();
