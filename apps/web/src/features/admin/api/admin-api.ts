import { z } from 'zod';
import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQueries,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { FullGlobalSettings } from '@offzero/shared/api/global-settings';
import { messageResponseSchema, mfaEnrolmentSchema, mfaStatusSchema } from '@offzero/shared/api/accounts';
import { apiGet, apiGetFile, apiPost, apiPut } from '../../../lib/api-client';
import {
  adminSettingsAnswerSchema,
  auditListSchema,
  customerDetailSchema,
  customerListSchema,
  kycCaseAnswerSchema,
  kycCasesSchema,
  kycDecisionAnswerSchema,
  messageAnswerSchema,
  orderActionAnswerSchema,
  fourEyesPendingSchema,
  orderDetailSchema,
  orderListSchema,
  queueSchema,
  saveSettingsAnswerSchema,
  type AuditTargetType,
} from '@offzero/shared/api/admin';
import {
  caseDetailSchema,
  caseListSchema,
  caseUpdateAnswerSchema,
  type CaseRule,
  type CaseStatus,
  type CaseUpdateRequest,
} from '@offzero/shared/api/cases';
import type { OrderActionKind } from '../orders/order-actions';
import type { KycStatusValue } from '@offzero/shared/api/kyc';
import {
  dueBuyListSchema,
  payoutBatchAnswerSchema,
  payoutBatchListSchema,
  type FeeTier,
} from '@offzero/shared/api/payout-batches';

// Every back-office call, as TanStack Query hooks. Keys start with 'admin' so one invalidation after an
// action refreshes every console screen (the queue, lists and details all change together).

export const ADMIN_KEY = 'admin';
/** The work queue is read again this often, so new payments show up without a reload. */
export const QUEUE_POLL_MS = 30_000;

const enc = encodeURIComponent;

/** `?a=1&b=2` of the defined, non-empty values; '' when there are none. */
export function queryString(params: Record<string, string | number | boolean | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '' || value === false) continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

// ---------------------------------------------------------------------------------------------------
// Work queue and orders

export function useWorkQueue() {
  return useQuery({
    queryKey: [ADMIN_KEY, 'queue'],
    queryFn: ({ signal }) => apiGet('/admin/queue', { schema: queueSchema, signal }),
    refetchInterval: QUEUE_POLL_MS,
  });
}

export interface OrderFilters {
  status?: string;
  type?: string;
  method?: string;
  customer?: string;
  flagged?: boolean;
  from?: string;
  to?: string;
}

export const ORDERS_PAGE_SIZE = 25;

function filterParams(filters: OrderFilters) {
  return {
    status: filters.status,
    type: filters.type,
    method: filters.method,
    customer: filters.customer?.trim(),
    flagged: filters.flagged ? 'true' : undefined,
    from: filters.from,
    to: filters.to,
  };
}

export function useAdminOrders(filters: OrderFilters, page: number) {
  const search = queryString({
    ...filterParams(filters),
    limit: ORDERS_PAGE_SIZE,
    offset: page * ORDERS_PAGE_SIZE,
  });
  return useQuery({
    queryKey: [ADMIN_KEY, 'orders', search],
    queryFn: ({ signal }) => apiGet(`/admin/orders${search}`, { schema: orderListSchema, signal }),
    placeholderData: keepPreviousData,
  });
}

/** The orders CSV for the same filters (every matching order, not one page). */
export function downloadOrdersCsv(filters: OrderFilters) {
  return apiGetFile(`/admin/orders/export.csv${queryString(filterParams(filters))}`);
}

export const orderDetailQuery = (orderId: string) =>
  queryOptions({
    queryKey: [ADMIN_KEY, 'order', orderId],
    queryFn: ({ signal }) => apiGet(`/admin/orders/${enc(orderId)}`, { schema: orderDetailSchema, signal }),
  });

export function useAdminOrder(orderId: string) {
  return useQuery(orderDetailQuery(orderId));
}

export interface OrderActionInput {
  kind: OrderActionKind;
  body: Record<string, string>;
  /** One per staff action (lib/idempotency-key.ts): a double click or a retry acts once. */
  idempotencyKey?: string;
}

/** Runs one action on an order; afterwards every console screen reads its data again. */
export function useOrderAction(orderId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, body, idempotencyKey }: OrderActionInput) =>
      apiPost(`/admin/orders/${enc(orderId)}/${kind}`, body, {
        // 202 (four eyes): a large payment or payout waits for a second admin.
        schema: z.union([orderActionAnswerSchema, fourEyesPendingSchema]),
        idempotencyKey,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [ADMIN_KEY] }),
  });
}

// ---------------------------------------------------------------------------------------------------
// KYC

export function useKycCases(status: KycStatusValue) {
  return useQuery({
    queryKey: [ADMIN_KEY, 'kyc', 'list', status],
    queryFn: ({ signal }) => apiGet(`/admin/kyc?status=${status}`, { schema: kycCasesSchema, signal }),
    refetchInterval: status === 'YELLOW' ? QUEUE_POLL_MS : false,
  });
}

export function useKycCase(userId: string) {
  return useQuery({
    queryKey: [ADMIN_KEY, 'kyc', 'case', userId],
    queryFn: async ({ signal }) =>
      (await apiGet(`/admin/kyc/${enc(userId)}`, { schema: kycCaseAnswerSchema, signal })).case,
  });
}

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

export function useDecideKyc(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (decision: { status: 'GREEN' | 'RED'; reason?: string }) =>
      apiPost(`/admin/kyc/${enc(userId)}`, decision, { schema: kycDecisionAnswerSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [ADMIN_KEY] }),
  });
}

// ---------------------------------------------------------------------------------------------------
// Monitoring cases

export interface CaseFilters {
  status?: CaseStatus | undefined;
  rule?: CaseRule | undefined;
  userId?: string | undefined;
}

export function useMonitoringCases(filters: CaseFilters, options: { poll?: boolean } = {}) {
  const search = queryString({ status: filters.status, rule: filters.rule, userId: filters.userId?.trim() });
  return useQuery({
    queryKey: [ADMIN_KEY, 'cases', 'list', search],
    queryFn: ({ signal }) => apiGet(`/admin/cases${search}`, { schema: caseListSchema, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: options.poll ? QUEUE_POLL_MS : false,
  });
}

export function useMonitoringCase(caseId: string) {
  return useQuery({
    queryKey: [ADMIN_KEY, 'cases', 'case', caseId],
    queryFn: async ({ signal }) =>
      (await apiGet(`/admin/cases/${enc(caseId)}`, { schema: caseDetailSchema, signal })).case,
  });
}

export function useUpdateCase(caseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ change, idempotencyKey }: { change: CaseUpdateRequest; idempotencyKey: string }) =>
      apiPost(`/admin/cases/${enc(caseId)}`, change, { schema: caseUpdateAnswerSchema, idempotencyKey }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [ADMIN_KEY] }),
  });
}

// ---------------------------------------------------------------------------------------------------
// Settings

export function useAdminSettings() {
  return useQuery({
    queryKey: [ADMIN_KEY, 'settings'],
    queryFn: async ({ signal }) =>
      (await apiGet('/admin/settings', { schema: adminSettingsAnswerSchema, signal })).settings,
  });
}

export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: FullGlobalSettings) =>
      apiPut('/admin/settings', settings, { schema: saveSettingsAnswerSchema }),
    onSuccess: (answer) => {
      queryClient.setQueryData([ADMIN_KEY, 'settings'], answer.settings);
      // Screens outside the console that read the settings (the trade widget) read them again.
      return queryClient.invalidateQueries({
        predicate: (query) => query.queryKey[0] !== ADMIN_KEY,
      });
    },
  });
}

// ---------------------------------------------------------------------------------------------------
// Customers

export function useCustomers(q: string) {
  const search = queryString({ q: q.trim() });
  return useQuery({
    queryKey: [ADMIN_KEY, 'customers', search],
    queryFn: ({ signal }) => apiGet(`/admin/users${search}`, { schema: customerListSchema, signal }),
    placeholderData: keepPreviousData,
  });
}

/** E-mail addresses of staff ids named in a timeline ('admin:<id>'), looked up once each. */
export function useStaffEmails(ids: string[]): Record<string, string> {
  const unique = [...new Set(ids)].sort();
  const results = useQueries({
    queries: unique.map((id) => ({
      queryKey: [ADMIN_KEY, 'staff-email', id],
      staleTime: Infinity,
      queryFn: async ({ signal }: { signal: AbortSignal }) =>
        (
          await apiGet(`/admin/users${queryString({ q: id, limit: 1 })}`, {
            schema: customerListSchema,
            signal,
          })
        ).users[0]?.email ?? null,
    })),
  });
  const emails: Record<string, string> = {};
  unique.forEach((id, index) => {
    const email = results[index]?.data;
    if (email) emails[id] = email;
  });
  return emails;
}

export function useCustomer(userId: string) {
  return useQuery({
    queryKey: [ADMIN_KEY, 'customer', userId],
    queryFn: ({ signal }) => apiGet(`/admin/users/${enc(userId)}`, { schema: customerDetailSchema, signal }),
  });
}

export function useSetCustomerEnabled(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      action,
      reason,
    }: {
      action: 'disable' | 'enable' | 'restrict' | 'lift-restriction';
      reason: string;
    }) => apiPost(`/admin/users/${enc(userId)}/${action}`, { reason }, { schema: messageAnswerSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [ADMIN_KEY] }),
  });
}

/** Moves a customer between the KYC tiers of the trading limits (audited with the reason). */
export function useSetCustomerTier(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ tier, reason }: { tier: 1 | 2; reason: string }) =>
      apiPost(`/admin/users/${enc(userId)}/tier`, { tier, reason }, { schema: messageAnswerSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [ADMIN_KEY] }),
  });
}

// ---------------------------------------------------------------------------------------------------
// Audit log

export interface AuditFilters {
  action?: string;
  targetType?: AuditTargetType | '';
  targetId?: string;
  admin?: string;
  limit?: number;
}

export function useAuditLog(filters: AuditFilters) {
  const search = queryString({
    action: filters.action?.trim(),
    targetType: filters.targetType,
    targetId: filters.targetId?.trim(),
    admin: filters.admin?.trim(),
    limit: filters.limit,
  });
  return useQuery({
    queryKey: [ADMIN_KEY, 'audit', search],
    queryFn: ({ signal }) => apiGet(`/admin/audit${search}`, { schema: auditListSchema, signal }),
    placeholderData: keepPreviousData,
  });
}

// ---------------------------------------------------------------------------------------------------
// Two-factor authentication of the signed-in admin

export function useMfaStatus() {
  return useQuery({
    queryKey: [ADMIN_KEY, 'mfa'],
    queryFn: ({ signal }) => apiGet('/admin/mfa', { schema: mfaStatusSchema, signal }),
  });
}

export const useStartMfaEnrolment = () =>
  useMutation({ mutationFn: () => apiPost('/admin/mfa/enroll', {}, { schema: mfaEnrolmentSchema }) });

export function useConfirmMfaEnrolment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => apiPost('/admin/mfa/verify', { code }, { schema: messageResponseSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [ADMIN_KEY] }),
  });
}

// ---------------------------------------------------------------------------------------------------
// Payout batches (docs/design.md)

export function useDueBuys() {
  return useQuery({
    queryKey: [ADMIN_KEY, 'payouts', 'due'],
    queryFn: ({ signal }) => apiGet('/admin/payouts/due', { schema: dueBuyListSchema, signal }),
    refetchInterval: QUEUE_POLL_MS,
  });
}

export function usePayoutBatches() {
  return useQuery({
    queryKey: [ADMIN_KEY, 'payouts', 'batches'],
    queryFn: ({ signal }) => apiGet('/admin/payouts/batches', { schema: payoutBatchListSchema, signal }),
    refetchInterval: QUEUE_POLL_MS,
  });
}

export type PayoutBatchAction =
  | { kind: 'build'; feeTier: FeeTier }
  | { kind: 'signed'; batchId: string; psbt: string }
  | { kind: 'bump-fee'; batchId: string; feeTier: FeeTier }
  | { kind: 'abandon'; batchId: string };

/** Every change of a batch; each answers the batch (and its unsigned PSBT) as it now is. */
export function usePayoutBatchAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, idempotencyKey }: { action: PayoutBatchAction; idempotencyKey: string }) => {
      const options = { schema: payoutBatchAnswerSchema, idempotencyKey };
      switch (action.kind) {
        case 'build':
          return apiPost('/admin/payouts/batches', { feeTier: action.feeTier }, options);
        case 'signed':
          return apiPost(
            `/admin/payouts/batches/${enc(action.batchId)}/signed`,
            { psbt: action.psbt },
            options,
          );
        case 'bump-fee':
          return apiPost(
            `/admin/payouts/batches/${enc(action.batchId)}/bump-fee`,
            { feeTier: action.feeTier },
            options,
          );
        case 'abandon':
          return apiPost(`/admin/payouts/batches/${enc(action.batchId)}/abandon`, {}, options);
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: [ADMIN_KEY] }),
  });
}

/** The unsigned PSBT as a .psbt file. */
export const downloadBatchPsbt = (batchId: string) =>
  apiGetFile(`/admin/payouts/batches/${enc(batchId)}/psbt`);

/** Demo only: the demo payout wallet signs the batch (standing in for the operator's own wallet). */
export const signBatchWithDemoWallet = (batchId: string) =>
  apiPost(`/dev/payouts/batches/${enc(batchId)}/sign`, {}, { schema: z.object({ psbt: z.string() }) });

// ---------------------------------------------------------------------------------------------------
// Form 1099-DA worksheet (docs/design.md). Every fetch of the file is audited by the server, so it is
// read once per year shown and not again when the window regains focus.

export const download1099Da = (year: number) => apiGetFile(`/admin/tax/1099-da?year=${year}`);

export function useForm1099Da(year: number) {
  return useQuery({
    // Not under ADMIN_KEY: the console's other changes invalidate that, and each reload here is audited.
    queryKey: ['form-1099-da', year],
    queryFn: async ({ signal }) => {
      const { blob } = await apiGetFile(`/admin/tax/1099-da?year=${year}`, signal);
      return blob.text();
    },
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}
