import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { saveW9ResponseSchema, w9ResponseSchema, type SaveW9Request, type W9 } from '@offzero/shared/api/tax';
import { apiGet, apiPost } from '../lib/api-client';
import { useSession } from '../lib/session';

// The customer's tax details (Form W-9, docs/design.md), read by the Settings card, the Tax center and
// the sell flow (a W-9 must be on file before a first sell). The server only ever answers the TIN masked.

export const taxDetailsQueryKey = (userId: string) => ['tax-details', userId] as const;

/** The signed-in customer's W-9 (null: none filed yet). */
export function useTaxDetails() {
  const session = useSession();
  const userId = session?.userId ?? '';
  return useQuery({
    queryKey: taxDetailsQueryKey(userId),
    enabled: session !== null,
    queryFn: async ({ signal }): Promise<W9 | null> =>
      (await apiGet(`/tax/w9?userId=${encodeURIComponent(userId)}`, { schema: w9ResponseSchema, signal })).w9,
  });
}

export function useSaveTaxDetails() {
  const session = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SaveW9Request) => apiPost('/tax/w9', body, { schema: saveW9ResponseSchema }),
    onSuccess: (answer) => {
      queryClient.setQueryData(taxDetailsQueryKey(session?.userId ?? ''), answer.w9);
    },
  });
}
