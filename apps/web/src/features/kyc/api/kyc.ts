import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { kycRecordSchema, kycTokenResponseSchema } from '@offzero/shared/api/kyc';
import { apiPost, apiPostForm } from '../../../lib/api-client';
import { kycQueryKey, type KycRecord } from '../../../domain/kyc';
import { useSession } from '../../../lib/session';

// Identity verification: the calls that submit a case. The record itself is
// read through domain/kyc.ts; whatever the browser or the widget says is only a reason to read it again.

const messageWithKycSchema = z.object({ message: z.string(), kyc: kycRecordSchema.nullable() });

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
        // A failed token fetch is only logged.
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
  /** A US resident's state, DC or territory code. */
  residenceState?: string | undefined;
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
      if (submission.residenceState) form.append('residenceState', submission.residenceState);
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
