import type { User } from '@offzero/shared/api/accounts';
import type { UserRow } from '../db/schema';

/** The user as the client contract names it. */
export function toUserResponse(row: UserRow, isAdmin: boolean): User {
  return {
    _id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    phoneNumber: row.phoneNumber,
    email_verified: row.emailVerified,
    phone_verified: row.phoneVerified,
    image: row.image,
    role: isAdmin ? 'admin' : 'customer',
  };
}
