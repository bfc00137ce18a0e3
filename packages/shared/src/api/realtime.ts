import { z } from 'zod';
import { kycStatusSchema } from './kyc';
import { orderSchema } from './orders';

/**
 * The realtime channel's contract (docs/design.md): one WebSocket at `/api/realtime` per signed-in
 * tab. The server's publisher and the browser's client both read every message through these schemas,
 * so an event type exists once, here; adding one here makes the client forward it.
 *
 *   client → `{"type":"auth","token":"<session JWT>"}`   first message, within 5 s of opening
 *   server → `{"type":"ready","userId":"…"}`             the token was accepted
 *   server → `{"type":<event type>,"payload":…}`         the customer's own events, below
 *   client → `{"type":"ping"}`, server → `{"type":"pong"}`
 *   server → `{"type":"resync"}`                         events may have been missed: re-read
 */

export const REALTIME_PATH = '/api/realtime';

/** Close codes of the channel besides the standard ones (1001 going away, 1009 too big, 1011). */
export const REALTIME_CLOSE = {
  /** Bad, expired or revoked session, or no auth message in time: the client must not retry. */
  unauthorized: 4401,
  /** Too many open sockets for one user in one server process. */
  tooManyConnections: 4429,
} as const;

/** A deposit to a sell order's address was seen on the chain (spec: the sell notification). */
export const newTransactionPayloadSchema = z.object({
  /** The output's value in BTC. */
  amount: z.number(),
  /** The order's id. */
  _id: z.string(),
  /** The deposit's transaction id. */
  txn: z.string(),
});

/** One of the customer's orders changed state; the order as `GET /api/order/list` shows it. */
export const orderUpdatedPayloadSchema = z.object({ order: orderSchema });

/** The back office (or the provider) decided the customer's identity verification. */
export const kycUpdatedPayloadSchema = z.object({ status: kycStatusSchema });

/** Every event the server pushes to a customer, told apart by `type`. Unknown fields are stripped. */
export const realtimeEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('new-transaction'), payload: newTransactionPayloadSchema }),
  z.object({ type: z.literal('order-updated'), payload: orderUpdatedPayloadSchema }),
  z.object({ type: z.literal('kyc-updated'), payload: kycUpdatedPayloadSchema }),
]);
export type RealtimeEvent = z.infer<typeof realtimeEventSchema>;
export type RealtimeEventType = RealtimeEvent['type'];
export type RealtimeEventPayloads = {
  [K in RealtimeEventType]: Extract<RealtimeEvent, { type: K }>['payload'];
};

/** Every event type the contract defines, in the union's order. */
export const REALTIME_EVENT_TYPES: readonly RealtimeEventType[] = realtimeEventSchema.options.map(
  (option) => option.shape.type.value,
);

/** The event, if `value` is a well-formed one (unknown fields stripped); anything else is null. */
export function parseRealtimeEvent(value: unknown): RealtimeEvent | null {
  const parsed = realtimeEventSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** What a client may send. Anything else is ignored (or, as the first message, closes with 4401). */
export const realtimeClientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auth'), token: z.string().min(1) }),
  z.object({ type: z.literal('ping') }),
]);
export type RealtimeClientMessage = z.infer<typeof realtimeClientMessageSchema>;

/** What the server sends: the control messages and the events. */
export const realtimeServerMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), userId: z.string() }),
  z.object({ type: z.literal('pong') }),
  // The server was cut off from the other processes (Redis was down) and is back: events published
  // meanwhile elsewhere did not reach this socket, so the client reads its state again.
  z.object({ type: z.literal('resync') }),
  ...realtimeEventSchema.options,
]);
export type RealtimeServerMessage = z.infer<typeof realtimeServerMessageSchema>;
