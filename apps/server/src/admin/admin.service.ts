import type { LimitTier } from '@offzero/shared/api/limits';
import type { SessionService, SignedInUser } from '../auth/sessions';
import type { SimulatedChain } from '../chain/simulated-chain';
import type { Database } from '../db/database';
import type { KycStatus } from '../db/schema';
import type { KycService } from '../kyc/kyc.service';
import type { OrderNotifier } from '../orders/order-notifications';
import type { ResolveDeps } from '../payout-addresses/payout-destination';
import type { EventBus } from '../realtime/event-bus';
import type { UserSettingsService } from '../settings/user-settings.service';
import type { AuditFilters } from './admin-audit.repository';
import type { AdminOrderFilters } from './admin-orders.repository';
import { cancelOrder } from './use-cases/cancel-order';
import { decideKycCase } from './use-cases/decide-kyc-case';
import { exportOrdersCsv } from './use-cases/export-orders-csv';
import { getCustomerDetail } from './use-cases/get-customer-detail';
import { getKycCase } from './use-cases/get-kyc-case';
import { getKycDocument } from './use-cases/get-kyc-document';
import { getOrderDetail } from './use-cases/get-order-detail';
import { getWorkQueue } from './use-cases/get-work-queue';
import { listAuditEntries } from './use-cases/list-audit-entries';
import { listKycCases } from './use-cases/list-kyc-cases';
import { markPaid } from './use-cases/mark-paid';
import { withFourEyes } from './use-cases/four-eyes';
import { hasPayoutThatCameBack } from '../payouts/payout.repository';
import { resolveFlag } from './use-cases/resolve-flag';
import { actionFactsIn, type OrderActionRequest } from './run-order-action';
import { assertOrderAction } from './order-action-rules';
import { searchCustomers } from './use-cases/search-customers';
import { searchOrders } from './use-cases/search-orders';
import { setCustomerAccess, type CustomerAccessChange } from './use-cases/set-customer-access';
import { updateGlobalSettings, type EditedSettings } from './use-cases/update-global-settings';
import { setCustomerTier } from './use-cases/set-customer-tier';
import { listFailedJobs } from './use-cases/list-failed-jobs';
import type { JobQueue } from '../jobs/job-queue';
import type { OutboxService } from '../outbox/outbox.service';
import { getOutboxStatus } from './use-cases/get-outbox-status';
import type { InboxService } from '../inbox/inbox.service';
import { getInboxStatus } from './use-cases/get-inbox-status';
import type { SanctionsListService } from '../compliance/sanctions/sanctions-list.service';
import { createPayoutsService } from '../payouts/payouts.service';
import type { BankProvider } from '../bank/bank-provider';

export interface AdminDependencies {
  db: Database;
  notify: OrderNotifier;
  /** The demo chain, through which demo payouts are sent; null when a real chain is used. */
  simulatedChain: SimulatedChain | null;
  confirmationsRequired: number;
  kyc: KycService;
  userSettings: UserSettingsService;
  bus: EventBus;
  sessions: Pick<SessionService, 'revokeAllFor'>;
  adminEmails: readonly string[];
  /** The job engine, whose parked jobs the back office lists. */
  jobs: Pick<JobQueue, 'failed'>;
  /** The delivery outbox, whose backlog and parked deliveries the back office sees. */
  outbox: Pick<OutboxService, 'pending' | 'failed'>;
  /** The webhook inbox, whose backlog and parked deliveries the back office sees. */
  inbox: Pick<InboxService, 'counts' | 'failed'>;
  /** The bank, whose word on each payout's transfer the order page shows. */
  bank?: Pick<BankProvider, 'getTransfer'> | null;
  /** The sanctions list, whose failed refresh the work queue raises as an alert. */
  sanctionsList: Pick<SanctionsListService, 'health'>;
  /** Where buys are paid: the address book's entries, xpub derivation through the chain. */
  payoutDestinations: ResolveDeps;
}

/** The back office: the order desk, KYC review, customers, audit log and settings, one use-case each. */
export function createAdminService(deps: AdminDependencies) {
  // Payouts are their own feature; the back office asks it, keeping four eyes here.
  const payouts = createPayoutsService(deps);
  return {
    // The order desk
    searchOrders: (filters: AdminOrderFilters) => searchOrders(deps, filters),
    exportOrdersCsv: (filters: AdminOrderFilters) => exportOrdersCsv(deps, filters),
    getOrderDetail: (orderId: string) => getOrderDetail(deps, orderId),
    getWorkQueue: () => getWorkQueue(deps),
    /** Four eyes first: a large buy answers `pending` until a second admin marks it paid. */
    markPaid: (request: OrderActionRequest) =>
      withFourEyes(
        deps,
        {
          ...request,
          action: 'order.mark_paid',
          details: {},
          check: async (tx, order) =>
            assertOrderAction('mark-paid', order, await actionFactsIn(tx, deps, order)),
        },
        (_approved, approval) => markPaid(deps, { ...request, approval }),
      ),
    recordBtcPayout: payouts.recordBtcPayout,
    /** Demo only (null otherwise): pays a buy out through the simulated chain. */
    sendDemoBtc: payouts.sendDemoBtc,
    /** Four eyes first: a large sell (or one paid again) answers `pending` until a second admin pays it out. */
    payoutUsd: (request: OrderActionRequest & { reference: string }) =>
      withFourEyes(
        deps,
        {
          ...request,
          action: 'order.payout_usd',
          details: { reference: request.reference },
          check: async (tx, order) =>
            assertOrderAction('payout-usd', order, await actionFactsIn(tx, deps, order)),
          // A payout the bank gave back is paid again only by two admins, whatever the amount.
          alwaysTwoAdmins: (tx, order) => hasPayoutThatCameBack(tx, order.id),
        },
        (approved, approval) => payouts.payoutUsd({ ...request, ...approved, approval }),
      ),
    cancelOrder: (request: { staff: SignedInUser; orderId: string; reason: string }) =>
      cancelOrder(deps, request),
    resolveFlag: (request: { staff: SignedInUser; orderId: string; note: string }) =>
      resolveFlag(deps, request),
    refundBtc: payouts.refundBtc,
    recordUsdRefund: payouts.recordUsdRefund,

    // KYC review
    listKycCases: (status: KycStatus) => listKycCases(deps, status),
    getKycCase: (userId: string) => getKycCase(deps, userId),
    getKycDocument: (userId: string) => getKycDocument(deps, userId),
    decideKycCase: (request: {
      staff: SignedInUser;
      userId: string;
      status: 'GREEN' | 'RED';
      reason: string | null;
    }) => decideKycCase(deps, request),

    // Customers
    searchCustomers: (query: { term: string; limit: number }) => searchCustomers(deps, query),
    getCustomerDetail: (userId: string) => getCustomerDetail(deps, userId),
    setCustomerAccess: (request: {
      staff: SignedInUser;
      userId: string;
      change: CustomerAccessChange;
      reason: string;
    }) => setCustomerAccess(deps, request),
    /** Moves a customer between the KYC tiers of the trading limits. */
    setCustomerTier: (request: { staff: SignedInUser; userId: string; tier: LimitTier; reason: string }) =>
      setCustomerTier(deps, request),

    // Audit log and settings
    listAuditEntries: (filters: AuditFilters) => listAuditEntries(deps, filters),
    // Background jobs
    listFailedJobs: () => listFailedJobs(deps),
    getOutboxStatus: () => getOutboxStatus(deps),
    getInboxStatus: () => getInboxStatus(deps),
    updateGlobalSettings: (request: { staff: SignedInUser; settings: EditedSettings }) =>
      updateGlobalSettings(deps, request),
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
