import { z } from 'zod';

/** The demo outbox, `GET /api/dev/outbox` (docs/design.md): demo mode only. */

/** Its filter: one recipient, an e-mail address or a phone number; blank shows every message. */
export const outboxFilterFormSchema = z.object({
  to: z.string().trim().max(254, { error: 'Search for at most 254 characters.' }),
});
