import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { fourEyesPendingSchema } from '@offzero/shared/api/admin';
import {
  jurisdictionSchema,
  jurisdictionsResponseSchema,
  type JurisdictionUpdate,
} from '@offzero/shared/places/places';
import { apiGet, apiPut } from '../../../lib/api-client';
import { ADMIN_KEY } from './admin-query';

const KEY = [ADMIN_KEY, 'jurisdictions'];

const adminJurisdictionsSchema = jurisdictionsResponseSchema.extend({
  pending: z.array(
    z.object({
      id: z.string(),
      code: z.string(),
      requestedBy: z.string(),
      requestedAt: z.string(),
      rules: z.record(z.string(), z.unknown()),
    }),
  ),
});

/** The places' rules in force, and the edits waiting for a second admin. */
export function useAdminJurisdictions() {
  return useQuery({
    queryKey: KEY,
    queryFn: ({ signal }) => apiGet('/admin/jurisdictions', { schema: adminJurisdictionsSchema, signal }),
  });
}

/** A place's new rules: 202 while a second admin must carry it out, 200 once in force. */
export function useSaveJurisdiction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ code, rules }: { code: string; rules: JurisdictionUpdate }) =>
      apiPut(`/admin/jurisdictions/${encodeURIComponent(code)}`, rules, {
        schema: z.union([
          z.object({ message: z.string(), jurisdiction: jurisdictionSchema }),
          fourEyesPendingSchema,
        ]),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: KEY }),
  });
}
