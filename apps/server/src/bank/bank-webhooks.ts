import type { FastifyBaseLogger } from 'fastify';
import type { Transaction } from '../db/database';
import { AppError } from '../http/errors';
import type { InboxService, StoredWebhook } from '../inbox/inbox.service';
import {
  BANK_WEBHOOK_SIGNATURE_HEADER,
  BankError,
  type BankEvent,
  type BankProvider,
  type BankTransfer,
  type InboundCredit,
} from './bank-provider';
import { readIncreaseEventEnvelope } from './increase-format';

/** The inbox's name for the bank's deliveries. */
export const BANK_WEBHOOK_PROVIDER = 'bank';

/** What a handler may ask to run once its transaction is committed (deliver the notices it wrote). */
type AfterCommit = (() => Promise<void>) | void;

/** Applies a transfer's new state inside the transaction that marks the delivery processed. */
export type TransferUpdatedHandler = (
  tx: Transaction,
  transfer: BankTransfer,
  eventId: string,
) => Promise<AfterCommit>;
/** Applies money that arrived inside the transaction that marks the delivery processed. */
export type InboundCreditHandler = (
  tx: Transaction,
  credit: InboundCredit,
  eventId: string,
) => Promise<AfterCommit>;

/**
 * The bank's webhooks (docs/design.md, "Bank provider"): a delivery is verified (signature over the
 * exact bytes, signed within five minutes: a forged, altered or old replayed one answers 401), stored
 * in the inbox once per event id (a replay stores nothing), answered, then applied by the inbox's job:
 * the signature is checked again, the event's object is read back from the bank, and the handlers the
 * features registered apply it in the inbox's transaction, so it is applied once.
 */
export function createBankWebhooks(deps: {
  bank: BankProvider;
  inbox: InboxService;
  log: Pick<FastifyBaseLogger, 'warn'>;
}) {
  const { bank, inbox, log } = deps;
  const transferHandlers: TransferUpdatedHandler[] = [];
  const creditHandlers: InboundCreditHandler[] = [];

  const runAll = async <T>(
    handlers: ((tx: Transaction, value: T, eventId: string) => Promise<AfterCommit>)[],
    tx: Transaction,
    value: T,
    eventId: string,
  ): Promise<AfterCommit> => {
    const afters: (() => Promise<void>)[] = [];
    for (const handler of handlers) {
      const after = await handler(tx, value, eventId);
      if (after) afters.push(after);
    }
    if (afters.length === 0) return undefined;
    return async () => {
      for (const after of afters) await after();
    };
  };

  inbox.register<BankEvent>(
    BANK_WEBHOOK_PROVIDER,
    async (tx, _delivery, event) => {
      if (event.kind === 'inbound_credit') {
        // Money must never be acknowledged without someone to apply it: retry until a handler exists.
        if (creditHandlers.length === 0) throw new Error('no handler applies inbound bank credits');
        return runAll(creditHandlers, tx, event.credit, event.eventId);
      }
      if (event.kind === 'transfer_updated')
        return runAll(transferHandlers, tx, event.transfer, event.eventId);
      return undefined;
    },
    async (delivery: StoredWebhook) => {
      // The age was checked on receipt; a stored delivery is applied whenever its job runs.
      if (!(await bank.verifyWebhook(delivery.rawBody, delivery.headers, { maxAgeSeconds: null })))
        throw new Error('the stored bank webhook no longer verifies');
      return bank.readWebhookEvent(delivery.rawBody);
    },
  );

  return {
    /** A delivery from the bank: 401 unless signed, 400 unless an event; 'replay' when stored before. */
    async receive(rawBody: Buffer, headers: Record<string, unknown>): Promise<'stored' | 'replay'> {
      const signature = headers[BANK_WEBHOOK_SIGNATURE_HEADER];
      const kept: Record<string, string> =
        typeof signature === 'string' ? { [BANK_WEBHOOK_SIGNATURE_HEADER]: signature } : {};
      let authentic: boolean;
      try {
        authentic = await bank.verifyWebhook(rawBody, kept);
      } catch (error) {
        log.warn({ err: error }, 'bank webhook could not be verified now');
        // The bank sends it again later.
        throw new AppError('UNAVAILABLE', 'The signature cannot be checked right now. Send it again later.');
      }
      if (!authentic) {
        log.warn('bank webhook with a bad or old signature refused');
        throw new AppError('UNAUTHENTICATED', 'Invalid signature.');
      }
      let eventId: string;
      try {
        eventId = readIncreaseEventEnvelope(rawBody).eventId;
      } catch (error) {
        if (error instanceof BankError)
          throw new AppError('BAD_REQUEST', 'The webhook body is not a bank event.');
        throw error;
      }
      return inbox.receive({ provider: BANK_WEBHOOK_PROVIDER, rawBody, headers: kept, deliveryKey: eventId });
    },

    /** A feature that sent transfers (payouts) hears of their new states here. */
    onTransferUpdated(handler: TransferUpdatedHandler): void {
      transferHandlers.push(handler);
    },

    /** The feature that matches deposits to orders hears of money arriving here. */
    onInboundCredit(handler: InboundCreditHandler): void {
      creditHandlers.push(handler);
    },
  };
}

export type BankWebhooks = ReturnType<typeof createBankWebhooks>;
