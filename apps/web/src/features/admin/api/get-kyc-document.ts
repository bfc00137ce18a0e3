import { useQuery } from '@tanstack/react-query';
import { apiGetFile } from '../../../lib/api-client';
import { ADMIN_KEY, enc } from './admin-query';

/** The case's document image as a Blob (the caller turns it into an object URL). */
export function useKycDocument(userId: string, enabled: boolean) {
  return useQuery({
    queryKey: [ADMIN_KEY, 'kyc', 'document', userId],
    enabled,
    staleTime: Infinity,
    gcTime: 0,
    queryFn: async ({ signal }) => (await apiGetFile(`/admin/kyc/${enc(userId)}/document`, signal)).blob,
  });
}
