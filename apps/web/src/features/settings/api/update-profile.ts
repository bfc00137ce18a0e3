import { useMutation } from '@tanstack/react-query';
import { userSchema } from '@offzero/shared/api/accounts';
import { z } from 'zod';
import { apiPost } from '../../../lib/api-client';
import { useStoreCurrentUser } from '../../../lib/current-user';

const updateProfileAnswerSchema = z.object({ message: z.string(), user: userSchema });

export interface UpdateProfileInput {
  firstName: string;
  lastName: string;
  /** Read-only: sent as it is on file, the server refuses any change. */
  email: string;
}

export function updateProfile(input: UpdateProfileInput) {
  return apiPost('/user/profile', input, { schema: updateProfileAnswerSchema });
}

/** Saves the names and puts the saved profile in the cache, so every screen shows it at once. */
export function useUpdateProfile() {
  const storeUser = useStoreCurrentUser();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (answer) => storeUser(answer.user),
  });
}
