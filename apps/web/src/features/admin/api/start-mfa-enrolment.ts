import { useMutation } from '@tanstack/react-query';
import { mfaEnrolmentSchema } from '@offzero/shared/api/accounts';
import { apiPost } from '../../../lib/api-client';

export const useStartMfaEnrolment = () =>
  useMutation({ mutationFn: () => apiPost('/admin/mfa/enroll', {}, { schema: mfaEnrolmentSchema }) });
