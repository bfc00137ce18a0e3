import { useQuery } from '@tanstack/react-query';
import { jurisdictionsResponseSchema } from '@offzero/shared/places/places';
import { apiGet } from '../../../lib/api-client';

/** The places' rules (public): which states OffZero serves, read before the customer verifies. */
export function useJurisdictions() {
  return useQuery({
    queryKey: ['jurisdictions'],
    queryFn: ({ signal }) => apiGet('/jurisdictions', { schema: jurisdictionsResponseSchema, signal }),
    staleTime: 5 * 60_000,
  });
}
