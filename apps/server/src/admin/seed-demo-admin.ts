import type { Database } from '../db/database';
import { users } from '../db/schema';
import { DEMO_ADMIN_EMAIL, DEMO_APPROVER_EMAIL } from '../config/config';

/**
 * Demo mode's two operator accounts (two, so four-eyes actions can be tried); they sign in with an
 * e-mail code from the demo outbox like anyone.
 */
export async function seedDemoAdmin(db: Database): Promise<void> {
  await db
    .insert(users)
    .values([
      { email: DEMO_ADMIN_EMAIL, emailVerified: true, firstName: 'Demo', lastName: 'Operator' },
      { email: DEMO_APPROVER_EMAIL, emailVerified: true, firstName: 'Demo', lastName: 'Approver' },
    ])
    .onConflictDoNothing({ target: users.email });
}
