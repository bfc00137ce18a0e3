import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { toast } from './toast';
import { messageResponseSchema } from '@offzero/shared/api/accounts';
import { apiPost } from './api-client';
import { signOut } from './session';
import { paths } from '../config/paths';

export function logout() {
  // No body: the bearer token says which session ends. A 401 means it had ended already.
  return apiPost('/user/logout', undefined, { schema: messageResponseSchema, on401: 'throw' });
}

/**
 * Ends the session on the server, then forgets it here whatever the answer (a customer who asks to log
 * out must end up logged out), drops every cached answer and goes to the home page.
 */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: logout,
    onSuccess: (answer) => toast.success(answer.message),
    onSettled: async () => {
      signOut();
      await navigate(paths.home, { replace: true });
      queryClient.clear();
    },
  });
}
