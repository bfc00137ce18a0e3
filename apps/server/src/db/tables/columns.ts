import { customType } from 'drizzle-orm/pg-core';

/** Raw bytes (an uploaded identity document, a webhook's body, a key). */
export const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });
