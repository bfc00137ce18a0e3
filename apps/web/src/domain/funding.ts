import { useQuery } from '@tanstack/react-query';
import { fundingResponseSchema } from '@offzero/shared/api/bank';
import { apiGet } from '../lib/api-client';

/**
 * The customer's own account number for ACH and wire buys (docs/design.md, "Bank provider"). Asked for
 * when the checkout offers ACH or wire, so it exists before the customer chooses one: the order then
 * records it as where to send the money.
 */
export function useFunding(enabled: boolean) {
  return useQuery({
    queryKey: ['funding'],
    queryFn: ({ signal }) => apiGet('/funding', { schema: fundingResponseSchema, signal }),
    enabled,
    staleTime: Infinity,
    retry: false,
  });
}
