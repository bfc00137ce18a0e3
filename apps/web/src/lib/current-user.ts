import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { userSchema, type User } from '@offzero/shared/api/accounts';
import { z } from 'zod';
import { apiGet } from './api-client';
import { useSession } from './session';

// The signed-in user's profile: GET /api/user/:id, always with the session's own id. Kept apart from
// the session store so the guards (in the first bundle) do not pull in the API schemas.

const userAnswerSchema = z.object({ user: userSchema });

export const currentUserQueryKey = (userId: string) => ['user', userId] as const;

export function currentUserQueryOptions(userId: string) {
  return queryOptions({
    queryKey: currentUserQueryKey(userId),
    queryFn: async ({ signal }) =>
      (await apiGet(`/user/${encodeURIComponent(userId)}`, { schema: userAnswerSchema, signal })).user,
  });
}

/** The signed-in user's profile; only used under the signed-in guard. */
export function useCurrentUser() {
  const session = useSession();
  return useQuery({
    ...currentUserQueryOptions(session?.userId ?? ''),
    enabled: session !== null,
  });
}

/** Puts a fresh copy of the user (from a save or verification answer) into the cache. */
export function useStoreCurrentUser(): (user: User) => void {
  const queryClient = useQueryClient();
  return (user: User) => queryClient.setQueryData(currentUserQueryKey(user._id), user);
}

/** "Ada Lovelace", or the e-mail address while no name is on file. */
export function displayName(user: Pick<User, 'firstName' | 'lastName' | 'email'>): string {
  const name = `${user.firstName} ${user.lastName}`.trim();
  return name || user.email;
}

/** Two letters for the avatar: the initials, or the first letter of the e-mail address. */
export function initials(user: Pick<User, 'firstName' | 'lastName' | 'email'>): string {
  const fromName = `${user.firstName.trim().charAt(0)}${user.lastName.trim().charAt(0)}`;
  return (fromName || user.email.charAt(0)).toUpperCase();
}
