import {
  BankError,
  type BankTransfer,
  type BankTransferKind,
  type BankTransferStatus,
  type InboundCredit,
} from './bank-provider';

/**
 * Increase's object shapes (docs/design.md, "Bank provider"), read into the bank provider's words.
 * The demo bank names its objects and events the same way, so one reader serves both.
 */

const OUTBOUND_TYPE = {
  ach_credit: 'ach_transfer',
  ach_debit: 'ach_transfer',
  wire: 'wire_transfer',
  rtp: 'real_time_payments_transfer',
  fednow: 'fednow_transfer',
} as const satisfies Record<BankTransferKind, string>;

const INBOUND_TYPE = {
  ach_credit: 'inbound_ach_transfer',
  ach_debit: 'inbound_ach_transfer',
  wire: 'inbound_wire_transfer',
  rtp: 'inbound_real_time_payments_transfer',
  fednow: 'inbound_fednow_transfer',
} as const satisfies Record<BankTransferKind, string>;

export type IncreaseTransferType =
  (typeof OUTBOUND_TYPE)[BankTransferKind] | (typeof INBOUND_TYPE)[BankTransferKind];

/** Increase's object type (and id prefix, and API path without the `s`) of a transfer. */
export function increaseObjectType(
  kind: BankTransferKind,
  direction: 'outbound' | 'inbound',
): IncreaseTransferType {
  return direction === 'outbound' ? OUTBOUND_TYPE[kind] : INBOUND_TYPE[kind];
}

const TRANSFER_TYPES: IncreaseTransferType[] = [
  ...new Set<IncreaseTransferType>([...Object.values(INBOUND_TYPE), ...Object.values(OUTBOUND_TYPE)]),
];

/** The transfer type an Increase id names (ids are `<type>_<random>`); null for another object. */
export function transferTypeOfId(id: string): IncreaseTransferType | null {
  // Inbound types first: `inbound_ach_transfer_…` also ends like an outbound one.
  return TRANSFER_TYPES.find((type) => id.startsWith(`${type}_`)) ?? null;
}

/** An Increase event, as delivered: thin, naming the object it is about. */
export function readIncreaseEventEnvelope(rawBody: Buffer): {
  eventId: string;
  category: string;
  objectType: string;
  objectId: string;
} {
  let body: unknown;
  try {
    body = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new BankError('The bank webhook is not JSON.', 400);
  }
  const event = body as Record<string, unknown> | null;
  if (
    !event ||
    event.type !== 'event' ||
    typeof event.id !== 'string' ||
    typeof event.category !== 'string' ||
    typeof event.associated_object_type !== 'string' ||
    typeof event.associated_object_id !== 'string'
  ) {
    throw new BankError('The bank webhook is not an event.', 400);
  }
  return {
    eventId: event.id,
    category: event.category,
    objectType: event.associated_object_type,
    objectId: event.associated_object_id,
  };
}

type Json = Record<string, unknown>;

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const object = (value: unknown): Json | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;

function cents(value: unknown): bigint {
  if (typeof value !== 'number' || !Number.isSafeInteger(value))
    throw new BankError('The bank sent an amount that is not whole cents.');
  return BigInt(value);
}

function date(value: unknown): Date {
  const parsed = typeof value === 'string' ? new Date(value) : null;
  if (!parsed || Number.isNaN(parsed.getTime())) throw new BankError('The bank sent a time it cannot read.');
  return parsed;
}

/** Our status of an outbound Increase transfer. */
function outboundStatus(type: IncreaseTransferType, body: Json): BankTransferStatus {
  const status = String(body.status);
  if (['rejected', 'canceled', 'reviewing_rejected'].includes(status)) return 'rejected';
  if (status === 'returned' || status === 'reversed') return 'returned';
  if (status === 'complete') return 'settled';
  // An ACH transfer has no "complete": it is settled once its settlement is there.
  if (type === 'ach_transfer' && status === 'submitted' && object(body.settlement)) return 'settled';
  if (status === 'submitted' || status === 'pending_response') return 'submitted';
  return 'pending';
}

function inboundStatus(body: Json): BankTransferStatus {
  const status = String(body.status);
  if (status === 'accepted' || status === 'confirmed') return 'settled';
  if (status === 'returned' || status === 'reversed') return 'returned';
  if (status === 'declined' || status === 'timed_out') return 'rejected';
  return 'pending';
}

/** An Increase transfer object (any of the eight types) as the bank provider reports it. */
export function readIncreaseTransfer(value: unknown): BankTransfer {
  const body = object(value);
  const type =
    body && typeof body.type === 'string' ? (TRANSFER_TYPES.find((t) => t === body.type) ?? null) : null;
  if (!body || !type || typeof body.id !== 'string')
    throw new BankError('The bank answered something that is not a transfer.');
  const inbound = type.startsWith('inbound_');
  const signed = cents(body.amount);
  const kind = kindOf(type, body, signed);
  const returned = object(body.return) ?? object(body.transfer_return) ?? object(body.reversal);
  const rejection = object(body.rejection) ?? object(body.decline);
  const settlement = object(body.settlement);
  const status = inbound ? inboundStatus(body) : outboundStatus(type, body);
  return {
    id: body.id,
    kind,
    direction: inbound ? 'inbound' : 'outbound',
    amountCents: signed < 0n ? -signed : signed,
    status,
    traceNumber: traceOf(type, body),
    counterparty: counterpartyOf(type, body),
    returnCode:
      text(returned?.raw_return_reason_code) ??
      text(returned?.return_reason_code) ??
      text(returned?.reason) ??
      text(rejection?.reject_reason_code) ??
      text(rejection?.reason) ??
      null,
    createdAt: date(body.created_at),
    settledAt:
      status === 'settled'
        ? settlement?.settled_at
          ? date(settlement.settled_at)
          : body.updated_at
            ? date(body.updated_at)
            : date(body.created_at)
        : null,
  };
}

function kindOf(type: IncreaseTransferType, body: Json, signed: bigint): BankTransferKind {
  if (type.endsWith('ach_transfer'))
    return body.direction === 'debit' || (!type.startsWith('inbound_') && signed < 0n)
      ? 'ach_debit'
      : 'ach_credit';
  if (type.endsWith('wire_transfer')) return 'wire';
  if (type.endsWith('fednow_transfer')) return 'fednow';
  return 'rtp';
}

/** The network's reference of a transfer: ACH trace, wire IMAD, RTP/FedNow message id or UETR. */
function traceOf(type: IncreaseTransferType, body: Json): string | null {
  const submission = object(body.submission);
  if (type === 'inbound_ach_transfer') return text(body.trace_number);
  if (type === 'inbound_wire_transfer')
    return text(body.input_message_accountability_data) ?? text(body.unique_end_to_end_transaction_reference);
  if (type === 'inbound_real_time_payments_transfer') return text(body.transaction_identification);
  if (type === 'inbound_fednow_transfer') return text(body.unique_end_to_end_transaction_reference);
  return (
    text(submission?.trace_number) ??
    text(submission?.input_message_accountability_data) ??
    text(submission?.transaction_identification) ??
    text(submission?.message_identification) ??
    text(body.unique_end_to_end_transaction_reference) ??
    null
  );
}

function counterpartyOf(type: IncreaseTransferType, body: Json): BankTransfer['counterparty'] {
  if (!type.startsWith('inbound_')) {
    const account = text(body.account_number);
    const routing = text(body.routing_number);
    const name =
      text(body.individual_name) ??
      text(body.creditor_name) ??
      text(object(body.creditor)?.name) ??
      text(body.company_name) ??
      '';
    return account && routing ? { accountNumber: account, routingNumber: routing, name } : null;
  }
  const account = text(body.debtor_account_number);
  const routing = text(body.debtor_routing_number) ?? text(body.originator_routing_number);
  return account && routing
    ? { accountNumber: account, routingNumber: routing, name: originatorOf(body) }
    : null;
}

/** Who sent an inbound transfer, as their bank named them. */
function originatorOf(body: Json): string {
  return text(body.originator_company_name) ?? text(body.debtor_name) ?? '';
}

/** An inbound Increase transfer that credited one of our account numbers. */
export function readIncreaseInboundCredit(value: unknown): InboundCredit | null {
  const transfer = readIncreaseTransfer(value);
  const body = value as Json;
  if (transfer.direction !== 'inbound' || transfer.kind === 'ach_debit') return null;
  const accountNumberId = text(body.account_number_id);
  if (!accountNumberId || !transfer.traceNumber)
    throw new BankError('The bank sent an inbound transfer without its account number or trace.');
  return {
    transferId: transfer.id,
    rail: transfer.kind === 'ach_credit' ? 'ach' : transfer.kind === 'wire' ? 'wire' : 'instant',
    accountNumberId,
    amountCents: transfer.amountCents,
    originatorName: originatorOf(body),
    traceNumber: transfer.traceNumber,
    receivedAt: transfer.createdAt,
  };
}
