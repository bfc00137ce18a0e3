import { randomBytes, randomInt } from 'node:crypto';
import type { Database } from '../db/database';
import {
  BANK_WEBHOOK_SIGNATURE_HEADER,
  BankError,
  type BankAccountNumber,
  type BankTransferRequest,
  type RoutingNumberInfo,
  type BankEvent,
  type BankProvider,
  type BankTransfer,
  type BankTransferKind,
  type InboundRail,
} from './bank-provider';
import {
  demoBankWebhookSecret,
  findDemoAccountNumber,
  findDemoAccountNumberByKey,
  findDemoTransfer,
  findDueDemoTransfers,
  insertDemoAccountNumber,
  insertDemoTransfer,
  listDemoTransfersOf,
  returnDemoTransfer,
  settleDemoTransfer,
  type DemoBankTransferRow,
} from './demo-bank.repository';
import { isValidRoutingNumber } from './routing-number';
import { signBankWebhook, verifyBankWebhookSignature } from './webhook-signature';
import { increaseObjectType, readIncreaseEventEnvelope } from './increase-format';

/** The demo bank's own routing number (checksum-valid, even last digit: reaches RTP and FedNow). */
export const DEMO_BANK_ROUTING_NUMBER = '110000000';
export const DEMO_BANK_NAME = 'OffZero Demo Bank';
/** How long the demo bank takes to settle an instant (RTP or FedNow) transfer by itself. */
export const DEMO_INSTANT_SETTLE_MS = 2_000;
/** A destination account number ending so is a closed account: instant transfers to it are rejected. */
const CLOSED_ACCOUNT_SUFFIX = '0000';

/** A delivery as the demo bank sends it: the exact bytes and the signature header. */
export interface BankWebhookDelivery {
  rawBody: Buffer;
  headers: Record<string, string>;
}

/** Where the demo bank delivers its webhooks: the same inbound path the real bank's reach. */
export type BankWebhookSink = (delivery: BankWebhookDelivery) => Promise<unknown>;

const INBOUND_KIND: Record<InboundRail, BankTransferKind> = {
  ach: 'ach_credit',
  wire: 'wire',
  instant: 'rtp',
};

const randomDigits = (length: number) =>
  Array.from({ length }, (_, index) => String(randomInt(index === 0 ? 1 : 0, 10))).join('');
const demoId = (prefix: string) => `${prefix}_demo${randomBytes(10).toString('hex')}`;

/** A stored transfer as the interface reports it. */
export function demoTransferAnswer(row: DemoBankTransferRow): BankTransfer {
  return {
    id: row.id,
    kind: row.kind,
    direction: row.direction,
    amountCents: row.amountCents,
    status: row.status,
    traceNumber: row.traceNumber,
    counterparty:
      row.counterpartyAccountNumber && row.counterpartyRoutingNumber
        ? {
            accountNumber: row.counterpartyAccountNumber,
            routingNumber: row.counterpartyRoutingNumber,
            name: row.counterpartyName,
          }
        : null,
    returnCode: row.returnCode,
    createdAt: row.createdAt,
    settledAt: row.settledAt,
  };
}

interface DemoBankContext {
  db: Database;
  now: () => Date;
  /** Signs Increase's thin event about one transfer and delivers it to the sink. */
  emit(row: DemoBankTransferRow, change: 'created' | 'updated'): Promise<void>;
}

/**
 * The demo stand-in bank: the bank provider interface over tables in the database, so every process
 * (web and worker) sees the same accounts and transfers. Its webhooks are Increase's events, signed as
 * Increase signs them with its own secret (kept in the database), and delivered to the sink the app
 * wires to the bank webhook's inbound path. Rules of the demo (docs/design.md, "Bank provider"): every
 * checksum-valid routing number is known, those ending in an even digit reach RTP and FedNow; an
 * instant transfer settles by itself after two seconds (`settleDue`, a periodic job), unless its
 * destination account number ends in 0000 (a closed account), which rejects it.
 */
export function createDemoBank(db: Database, options: { now?: () => Date } = {}) {
  const now = options.now ?? (() => new Date());
  let secret: Promise<string> | null = null;
  let sink: BankWebhookSink | null = null;
  const webhookSecret = () => {
    secret ??= demoBankWebhookSecret(db, `whsec_${randomBytes(24).toString('base64url')}`).catch(
      (error: unknown) => {
        secret = null;
        throw error;
      },
    );
    return secret;
  };

  const ctx: DemoBankContext = {
    db,
    now,
    async emit(row, change) {
      const at = now();
      const type = increaseObjectType(row.kind, row.direction);
      const event = {
        id: demoId('event'),
        created_at: at.toISOString(),
        category: `${type}.${change}`,
        associated_object_type: type,
        associated_object_id: row.id,
        type: 'event',
      };
      const rawBody = Buffer.from(JSON.stringify(event));
      const signature = signBankWebhook(await webhookSecret(), rawBody, at);
      if (!sink) throw new BankError('The demo bank has nowhere to send its webhooks.');
      await sink({
        rawBody,
        headers: { [BANK_WEBHOOK_SIGNATURE_HEADER]: signature, 'content-type': 'application/json' },
      });
    },
  };

  /** The network settles a transfer; the bank tells us. Null when it is not on its way. */
  async function settle(id: string): Promise<BankTransfer | null> {
    const row = await settleDemoTransfer(db, id, now());
    if (!row) return null;
    await ctx.emit(row, 'updated');
    return demoTransferAnswer(row);
  }

  const provider: BankProvider = {
    kind: 'demo',
    createAccountNumber: ({ name, idempotencyKey }) => createDemoAccountNumber(db, name, idempotencyKey),
    lookUpRoutingNumber: async (routingNumber) => lookUpDemoRoutingNumber(routingNumber),
    createTransfer: (request) => createDemoTransfer(ctx, request),
    async getTransfer(id) {
      const row = await findDemoTransfer(db, { id });
      if (!row)
        throw new BankError('No transfer has this id at the demo bank.', 404, 'object_not_found_error');
      return demoTransferAnswer(row);
    },
    returnInboundTransfer: (id, reason) => returnDemoInbound(ctx, id, reason),
    async verifyWebhook(rawBody, headers, verifyOptions) {
      return verifyBankWebhookSignature(await webhookSecret(), rawBody, headers, verifyOptions);
    },
    readWebhookEvent: (rawBody) => readDemoWebhookEvent(db, rawBody),
  };

  return {
    ...provider,
    kind: 'demo' as const,
    /** Wires where the bank's webhooks go (the app's bank webhook inbound path). */
    setWebhookSink(next: BankWebhookSink) {
      sink = next;
    },
    /** Someone sends money to one of the bank's account numbers; the bank tells us by webhook. */
    sendInbound: (input: DemoInbound) => sendDemoInbound(ctx, input),
    settle,
    /** The receiving bank returns a transfer with a NACHA return code; the bank tells us. */
    async returnTransfer(id: string, code: string): Promise<BankTransfer | null> {
      const row = await returnDemoTransfer(db, id, code, now());
      if (!row) return null;
      await ctx.emit(row, 'updated');
      return demoTransferAnswer(row);
    },
    /** Every transfer to or from an account number, oldest first. */
    async listTransfers(accountNumber: string): Promise<BankTransfer[]> {
      const account = await findDemoAccountNumber(db, { accountNumber });
      return (await listDemoTransfersOf(db, accountNumber, account?.id ?? null)).map(demoTransferAnswer);
    },
    /** The periodic job: settles every instant transfer whose time has come, once across processes. */
    async settleDue(): Promise<number> {
      let settled = 0;
      for (const id of await findDueDemoTransfers(db, now(), 100)) {
        if (await settle(id)) settled += 1;
      }
      return settled;
    },
  };
}

export interface DemoInbound {
  accountNumber: string;
  amountCents: bigint;
  originatorName: string;
  rail: InboundRail;
  traceNumber?: string;
}

async function createDemoAccountNumber(
  db: Database,
  name: string,
  idempotencyKey: string,
): Promise<BankAccountNumber> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const created = await insertDemoAccountNumber(db, {
      id: demoId('account_number'),
      accountNumber: randomDigits(12),
      routingNumber: DEMO_BANK_ROUTING_NUMBER,
      name,
      idempotencyKey,
    });
    const row = created ?? (await findDemoAccountNumberByKey(db, idempotencyKey));
    if (row)
      return {
        id: row.id,
        accountNumber: row.accountNumber,
        routingNumber: row.routingNumber,
        name: row.name,
        status: row.status,
      };
    // A clash of random numbers (not of keys): draw again.
  }
  throw new BankError('The demo bank could not draw a free account number.');
}

function lookUpDemoRoutingNumber(routingNumber: string): RoutingNumberInfo | null {
  if (!isValidRoutingNumber(routingNumber)) return null;
  const instant = Number(routingNumber.at(-1)) % 2 === 0;
  return {
    routingNumber,
    bankName:
      routingNumber === DEMO_BANK_ROUTING_NUMBER ? DEMO_BANK_NAME : `Demo Bank ${routingNumber.slice(0, 4)}`,
    ach: true,
    wire: true,
    rtp: instant,
    fednow: instant,
  };
}

async function createDemoTransfer(ctx: DemoBankContext, request: BankTransferRequest): Promise<BankTransfer> {
  const { db } = ctx;
  if (request.amountCents <= 0n)
    throw new BankError('The amount must be positive.', 422, 'invalid_parameters_error');
  const existing = await findDemoTransfer(db, { idempotencyKey: request.idempotencyKey });
  if (existing) return sameRequestOrConflict(existing, request);
  const { counterparty } = request;
  const instant = request.kind === 'rtp' || request.kind === 'fednow';
  const reach = lookUpDemoRoutingNumber(counterparty.routingNumber);
  if (!reach) throw new BankError('The routing number is not valid.', 422, 'invalid_parameters_error');
  if (instant && !(request.kind === 'rtp' ? reach.rtp : reach.fednow))
    throw new BankError(
      'The receiving bank is not on this instant network.',
      422,
      'invalid_parameters_error',
    );
  const rejected = instant && counterparty.accountNumber.endsWith(CLOSED_ACCOUNT_SUFFIX);
  const at = ctx.now();
  const row = await insertDemoTransfer(db, {
    id: demoId(increaseObjectType(request.kind, 'outbound')),
    kind: request.kind,
    direction: 'outbound',
    amountCents: request.amountCents,
    status: rejected ? 'rejected' : 'submitted',
    traceNumber: traceNumberFor(request.kind),
    idempotencyKey: request.idempotencyKey,
    counterpartyAccountNumber: counterparty.accountNumber,
    counterpartyRoutingNumber: counterparty.routingNumber,
    counterpartyName: counterparty.name,
    secCode: request.kind.startsWith('ach') ? (request.secCode ?? 'PPD') : null,
    description: request.description,
    returnCode: rejected ? 'AC04' : null,
    settleAt: instant && !rejected ? new Date(at.getTime() + DEMO_INSTANT_SETTLE_MS) : null,
    createdAt: at,
    updatedAt: at,
  });
  // Two first calls with one key at once: the loser answers the winner's transfer.
  const stored = row ?? (await findDemoTransfer(db, { idempotencyKey: request.idempotencyKey }));
  if (!stored) throw new BankError('The demo bank lost a transfer it just stored.');
  if (row && rejected) await ctx.emit(row, 'updated');
  return row ? demoTransferAnswer(row) : sameRequestOrConflict(stored, request);
}

async function returnDemoInbound(ctx: DemoBankContext, id: string, reason: string): Promise<BankTransfer> {
  const row = await findDemoTransfer(ctx.db, { id });
  if (!row || row.direction !== 'inbound')
    throw new BankError('No inbound transfer has this id at the demo bank.', 404, 'object_not_found_error');
  if (row.status === 'returned') return demoTransferAnswer(row);
  const returned = await returnDemoTransfer(ctx.db, id, returnCodeFor(row.kind, reason), ctx.now());
  const answer = returned ?? (await findDemoTransfer(ctx.db, { id }));
  if (!answer) throw new BankError('The demo bank lost a transfer.');
  return demoTransferAnswer(answer);
}

async function readDemoWebhookEvent(db: Database, rawBody: Buffer): Promise<BankEvent> {
  const envelope = readIncreaseEventEnvelope(rawBody);
  const row = await findDemoTransfer(db, { id: envelope.objectId });
  if (!row) return { kind: 'other', eventId: envelope.eventId, category: envelope.category };
  if (row.direction === 'outbound')
    return { kind: 'transfer_updated', eventId: envelope.eventId, transfer: demoTransferAnswer(row) };
  if (row.status !== 'settled' || !row.accountNumberId || row.kind === 'ach_debit')
    return { kind: 'other', eventId: envelope.eventId, category: envelope.category };
  return {
    kind: 'inbound_credit',
    eventId: envelope.eventId,
    credit: {
      transferId: row.id,
      rail: row.kind === 'wire' ? 'wire' : row.kind === 'ach_credit' ? 'ach' : 'instant',
      accountNumberId: row.accountNumberId,
      amountCents: row.amountCents,
      originatorName: row.counterpartyName,
      traceNumber: row.traceNumber,
      receivedAt: row.createdAt,
    },
  };
}

async function sendDemoInbound(
  ctx: DemoBankContext,
  input: DemoInbound,
): Promise<{ transferId: string; traceNumber: string }> {
  const account = await findDemoAccountNumber(ctx.db, { accountNumber: input.accountNumber });
  if (!account)
    throw new BankError('No account has this number at the demo bank.', 404, 'object_not_found_error');
  const kind = INBOUND_KIND[input.rail];
  const at = ctx.now();
  const row = await insertDemoTransfer(ctx.db, {
    id: demoId(increaseObjectType(kind, 'inbound')),
    kind,
    direction: 'inbound',
    amountCents: input.amountCents,
    status: 'settled',
    traceNumber: input.traceNumber ?? traceNumberFor(kind),
    accountNumberId: account.id,
    counterpartyName: input.originatorName,
    createdAt: at,
    settledAt: at,
    updatedAt: at,
  });
  if (!row) throw new BankError('The demo bank could not store the transfer.');
  await ctx.emit(row, 'created');
  return { transferId: row.id, traceNumber: row.traceNumber };
}

export type DemoBank = ReturnType<typeof createDemoBank>;

/** The same key again: the same transfer when the request is the same, else the bank's 409. */
function sameRequestOrConflict(
  row: DemoBankTransferRow,
  request: {
    kind: BankTransferKind;
    amountCents: bigint;
    counterparty: { accountNumber: string; routingNumber: string };
  },
): BankTransfer {
  const same =
    row.kind === request.kind &&
    row.amountCents === request.amountCents &&
    row.counterpartyAccountNumber === request.counterparty.accountNumber &&
    row.counterpartyRoutingNumber === request.counterparty.routingNumber;
  if (!same)
    throw new BankError(
      'This idempotency key was used for another transfer.',
      409,
      'idempotency_key_already_used_error',
    );
  return demoTransferAnswer(row);
}

/** A network reference in the network's shape: ACH's 15-digit trace, a wire's IMAD, an instant message id. */
function traceNumberFor(kind: BankTransferKind): string {
  if (kind === 'ach_credit' || kind === 'ach_debit')
    return `${DEMO_BANK_ROUTING_NUMBER.slice(0, 8)}${randomDigits(7)}`;
  const day = new Date().toISOString().slice(0, 10).replaceAll('-', '');
  if (kind === 'wire') return `${day}DEMO${randomDigits(6)}`;
  return `${day}${DEMO_BANK_ROUTING_NUMBER}${randomBytes(6).toString('hex').toUpperCase()}`;
}

/** How an operator's return of an inbound payment is coded on its network. */
function returnCodeFor(kind: BankTransferKind, reason: string): string {
  if (kind === 'ach_credit' || kind === 'ach_debit') return /^R\d\d$/.test(reason) ? reason : 'R23';
  return reason.slice(0, 32) || 'returned';
}
