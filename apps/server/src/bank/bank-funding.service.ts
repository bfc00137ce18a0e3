import { formatUsd } from '@offzero/shared/money/money';
import type { FundingResponse } from '@offzero/shared/api/bank';
import type { FastifyBaseLogger } from 'fastify';
import type { SignedInUser } from '../auth/sessions';
import type { Database, Transaction } from '../db/database';
import type { OrderRow, UserRow } from '../db/schema';
import { AppError } from '../http/errors';
import type { AppMetrics } from '../metrics/app-metrics';
import type { OrderNotifier } from '../orders/order-notifications';
import { recordAdminAction } from '../admin/admin-audit.repository';
import { BankError, type BankProvider } from './bank-provider';
import type { BankWebhooks } from './bank-webhooks';
import {
  findFundingAccount,
  findVerifiedName,
  listBankCredits,
  lockBankCredit,
  lockUnpaidBankBuys,
  releaseReturnClaim,
  resolveBankCredit,
  saveFundingAccount,
  type BankAccountNumberRow,
  type BankCreditRow,
} from './bank-credits.repository';
import { applyInboundCredit, fundingDetails, payOrder } from './inbound-matching';

export const FUNDING_MESSAGES = {
  notVerified: 'Verify your identity to get your own account number.',
  unavailable: 'We cannot open your account number right now. Try again in a moment.',
} as const;

/**
 * Customers' own account numbers and the money that arrives on them (docs/design.md, "Bank
 * provider"). Subscribes to the bank's inbound credits: each is matched to an order or held for an
 * operator, who matches or returns it.
 */
export function createBankFundingService(deps: {
  db: Database;
  bank: BankProvider;
  webhooks: BankWebhooks;
  notify: OrderNotifier;
  metrics: Pick<AppMetrics, 'bankCredits'>;
  companyName: string;
  log: Pick<FastifyBaseLogger, 'warn'>;
  now?: () => Date;
}) {
  const { db, bank } = deps;
  const now = deps.now ?? (() => new Date());

  deps.webhooks.onInboundCredit(async (tx, credit) => {
    const result = await applyInboundCredit(tx, credit, now());
    return async () => {
      deps.metrics.bankCredits.inc({ outcome: result.outcome });
      if (result.outcome === 'matched') await deps.notify(result.order);
    };
  });

  /** The customer's account number, made once through the bank (the key makes two first calls one). */
  async function fundingAccount(user: Pick<UserRow, 'id'>): Promise<BankAccountNumberRow> {
    const existing = await findFundingAccount(db, { userId: user.id });
    if (existing) return existing;
    if (!(await findVerifiedName(db, user.id))) throw new AppError('FORBIDDEN', FUNDING_MESSAGES.notVerified);
    try {
      const created = await bank.createAccountNumber({
        name: `Customer ${user.id}`,
        idempotencyKey: `funding-${user.id}`,
      });
      const routing = await bank.lookUpRoutingNumber(created.routingNumber);
      return await saveFundingAccount(db, {
        userId: user.id,
        bankAccountNumberId: created.id,
        accountNumber: created.accountNumber,
        routingNumber: created.routingNumber,
        bankName: routing?.bankName ?? '',
        accountHolder: deps.companyName,
      });
    } catch (error) {
      if (!(error instanceof BankError)) throw error;
      deps.log.warn({ err: error }, 'the bank could not create an account number');
      throw new AppError('UNAVAILABLE', FUNDING_MESSAGES.unavailable);
    }
  }

  return {
    async getFunding(user: Pick<UserRow, 'id'>): Promise<FundingResponse> {
      const { accountNumber, routingNumber, bankName, accountHolder } = await fundingAccount(user);
      return { accountNumber, routingNumber, bankName, accountHolder };
    },

    /** The receiving details of the customer's ACH or wire buy: their own account number, when they have one. */
    async receivingDetails(userId: string): Promise<Record<string, string> | null> {
      const account = await findFundingAccount(db, { userId }).catch(() => null);
      return account ? fundingDetails(account) : null;
    },

    listCredits: (status?: BankCreditRow['status']) => listBankCredits(db, { status }),

    /** An operator pays an order of the credit's customer with it (amounts must be equal). */
    async matchCredit(staff: SignedInUser, creditId: string, orderId: string): Promise<OrderRow> {
      const order = await db.transaction((tx) => matchCreditIn(tx, staff, { creditId, orderId }, now()));
      deps.metrics.bankCredits.inc({ outcome: 'matched' });
      await deps.notify(order);
      return order;
    },

    /**
     * An operator sends a credit back to its sender: the credit is claimed as returned first (so no one
     * matches it meanwhile), then the bank returns it (idempotent: its key is the transfer's id); a bank
     * refusal releases the claim.
     */
    async returnCredit(staff: SignedInUser, creditId: string, reason: string): Promise<BankCreditRow> {
      const claimed = await db.transaction(async (tx) => {
        const credit = await lockBankCredit(tx, creditId);
        if (!credit) throw new AppError('NOT_FOUND', 'No bank credit has this id.');
        if (credit.status !== 'unmatched')
          throw new AppError('CONFLICT', `This credit is already ${credit.status}.`);
        const returned = await resolveBankCredit(tx, credit.id, {
          status: 'returned',
          resolvedBy: staff.user.email,
          now: now(),
        });
        await recordAdminAction(tx, staff, {
          action: 'bank_credit.return',
          targetType: 'bank_credit',
          targetId: credit.id,
          before: credit,
          after: returned,
          note: reason,
        });
        return returned;
      });
      try {
        await bank.returnInboundTransfer(claimed.bankTransferId, reason);
      } catch (error) {
        if (!(error instanceof BankError)) throw error;
        await releaseReturnClaim(db, claimed.id);
        throw new AppError('UNAVAILABLE', `The bank did not return the credit: ${error.message}`);
      }
      return claimed;
    },
  };
}

/** An operator's match, inside its transaction: the credit's customer's unpaid buy of the same amount. */
async function matchCreditIn(
  tx: Transaction,
  staff: SignedInUser,
  { creditId, orderId }: { creditId: string; orderId: string },
  at: Date,
): Promise<OrderRow> {
  const credit = await lockBankCredit(tx, creditId);
  if (!credit) throw new AppError('NOT_FOUND', 'No bank credit has this id.');
  if (credit.status !== 'unmatched')
    throw new AppError('CONFLICT', `This credit is already ${credit.status}.`);
  if (!credit.userId)
    throw new AppError('CONFLICT', 'No customer has this account number. Return the credit.');
  const account = await findFundingAccount(tx, { userId: credit.userId });
  const candidate = (await lockUnpaidBankBuys(tx, credit.userId)).find((row) => row.id === orderId);
  if (!candidate || !account)
    throw new AppError('NOT_FOUND', "This is not an unpaid ACH or wire buy of the credit's customer.");
  if (candidate.valueCents !== credit.amountCents)
    throw new AppError(
      'CONFLICT',
      `The credit is $${formatUsd(credit.amountCents)}; the order asks $${formatUsd(candidate.valueCents)}. Return the credit instead.`,
    );
  if (candidate.flag) throw new AppError('CONFLICT', 'Resolve the flag first.');
  const resolved = await resolveBankCredit(tx, credit.id, {
    status: 'matched',
    orderId,
    resolvedBy: staff.user.email,
    now: at,
  });
  const paid = await payOrder(
    tx,
    candidate,
    resolved,
    account,
    {
      confirmedBy: staff.user.email,
      actor: `admin:${staff.user.id}`,
    },
    at,
  );
  await recordAdminAction(tx, staff, {
    action: 'bank_credit.match',
    targetType: 'bank_credit',
    targetId: credit.id,
    before: credit,
    after: resolved,
    note: `paid order ${orderId}`,
  });
  return paid;
}

export type BankFundingService = ReturnType<typeof createBankFundingService>;
