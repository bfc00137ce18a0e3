import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { kycRecordSchema, kycResponseSchema, kycTokenResponseSchema } from '@offzero/shared/api/kyc';
import { apiGet, apiPost, apiPostForm } from '../../../lib/api-client';
import { useRealtimeEvent } from '../../../lib/realtime';
import { useSession } from '../../../lib/session';

// Identity verification (spec sections 4 and 7). The server decides every status (a back-office
// reviewer, the provider's signed webhook); whatever the browser or the widget says is only a reason
// to read GET /api/kyc again.

export type KycRecord = z.infer<typeof kycRecordSchema>;

/** While a case is under review, how often the status is read again so an approval shows by itself. */
export const KYC_REVIEW_POLL_MS = 10_000;

const messageWithKycSchema = z.object({ message: z.string(), kyc: kycRecordSchema.nullable() });

export const kycQueryKey = (userId: string) => ['kyc', userId] as const;

export function kycQueryOptions(userId: string) {
  return queryOptions({
    queryKey: kycQueryKey(userId),
    queryFn: async ({ signal }) =>
      (await apiGet(`/kyc/${encodeURIComponent(userId)}`, { schema: kycResponseSchema, signal })).kyc,
  });
}

/** The signed-in customer's KYC record (null: none yet), polled every 10 s while it is YELLOW. */
export function useKyc() {
  const session = useSession();
  const queryClient = useQueryClient();
  // A decision in the back office shows at once; the poll covers a lost connection.
  useRealtimeEvent('kyc-updated', () => {
    void queryClient.invalidateQueries({ queryKey: kycQueryKey(session?.userId ?? '') });
  });
  return useQuery({
    ...kycQueryOptions(session?.userId ?? ''),
    enabled: session !== null,
    refetchInterval: (query) => (query.state.data?.status === 'YELLOW' ? KYC_REVIEW_POLL_MS : false),
  });
}

function useOwnId(): string {
  return useSession()?.userId ?? '';
}

/** Puts a record the server just answered with into the cache, then reads it again. */
function useRefreshKyc() {
  const queryClient = useQueryClient();
  const userId = useOwnId();
  return (record?: KycRecord | null) => {
    if (record !== undefined) queryClient.setQueryData(kycQueryKey(userId), record);
    return queryClient.invalidateQueries({ queryKey: kycQueryKey(userId) });
  };
}

/** Which verification this OffZero uses ('local': the demo form; 'sumsub': the provider's widget). */
export function fetchKycAccess(userId: string) {
  return apiPost('/kyc/generate/token', { user_id: userId }, { schema: kycTokenResponseSchema });
}

/** A fresh access token when the dialog opens; never cached, since tokens expire. */
export function useKycAccess(enabled: boolean) {
  const userId = useOwnId();
  return useQuery({
    queryKey: ['kyc-access', userId],
    enabled: enabled && userId !== '',
    staleTime: 0,
    gcTime: 0,
    retry: false,
    queryFn: async () => {
      try {
        return await fetchKycAccess(userId);
      } catch (error) {
        // Spec section 8: a failed token fetch is only logged.
        console.error('Could not get an identity verification token', error);
        throw error;
      }
    },
  });
}

export interface LocalKycSubmission {
  legalName: string;
  dateOfBirth: string;
  country: string;
  documentType: string;
  documentNumber: string;
  document: File;
}

/** The demo form as multipart/form-data, with the image in the `document` field. */
export function useSubmitLocalKyc() {
  const refresh = useRefreshKyc();
  return useMutation({
    mutationFn: (submission: LocalKycSubmission) => {
      const form = new FormData();
      form.append('legalName', submission.legalName);
      form.append('dateOfBirth', submission.dateOfBirth);
      form.append('country', submission.country);
      form.append('documentType', submission.documentType);
      form.append('documentNumber', submission.documentNumber);
      form.append('document', submission.document, submission.document.name);
      return apiPostForm('/kyc/local/submit', form, { schema: messageWithKycSchema });
    },
    onSuccess: (answer) => refresh(answer.kyc),
  });
}

/** The widget said "submitted": the server asks the provider, never the widget. */
export function useRegisterKyc() {
  const userId = useOwnId();
  const refresh = useRefreshKyc();
  return useMutation({
    mutationFn: () => apiPost('/kyc/register', { userid: userId }, { schema: messageWithKycSchema }),
    onSettled: () => refresh(),
  });
}

/** The widget said the review completed: again only a reason for the server to ask the provider. */
export function useUpdateKycStatus() {
  const userId = useOwnId();
  const refresh = useRefreshKyc();
  return useMutation({
    mutationFn: (results: unknown) =>
      apiPost('/kyc/status/update', { userid: userId, results }, { schema: messageWithKycSchema }),
    onSettled: () => refresh(),
  });
}
