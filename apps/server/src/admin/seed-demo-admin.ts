import type { Database } from '../db/database';
import { users } from '../db/schema';
import { DEMO_ADMIN_EMAIL } from '../config/config';

/** Demo mode's operator account; it signs in with an e-mail code from the demo outbox like anyone. */
export async function seedDemoAdmin(db: Database): Promise<void> {
  await db
    .insert(users)
    .values({ email: DEMO_ADMIN_EMAIL, emailVerified: true, firstName: 'Demo', lastName: 'Operator' })
    .onConflictDoNothing({ target: users.email });
}
