import type { Database } from '../../db/database';
import type { UserRow } from '../../db/schema';
import { searchUsers } from '../admin-customers.repository';

/** Customers whose e-mail or phone contains `term` (or whose id it is), newest first. */
export async function searchCustomers(
  deps: { db: Database; adminEmails: readonly string[] },
  query: { term: string; limit: number },
): Promise<{ user: UserRow; isAdmin: boolean }[]> {
  const users = await searchUsers(deps.db, query.term, query.limit);
  return users.map((user) => ({ user, isAdmin: deps.adminEmails.includes(user.email) }));
}
