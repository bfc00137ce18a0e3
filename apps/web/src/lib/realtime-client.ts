import {
  REALTIME_CLOSE,
  REALTIME_EVENT_TYPES,
  REALTIME_PATH,
  realtimeServerMessageSchema,
  type RealtimeEventPayloads,
  type RealtimeEventType,
} from '@offzero/shared/api/realtime';

/**
 * The realtime channel (docs/design.md): one WebSocket at /api/realtime per signed-in tab. Its
 * messages are the shared contract's (packages/shared/src/api/realtime): every event type defined
 * there is forwarded to the screens listening with `useRealtimeEvent`.
 *
 * Browsers cannot put a bearer token on a WebSocket, so the first message carries it
 * (`{"type":"auth","token":…}`) and the server answers `{"type":"ready"}` before it pushes the
 * customer's own events. A dropped connection is opened again with exponential backoff (1 s doubling
 * to 30 s, with jitter so a restarted server is not hit by every tab at once); close code 4401 means
 * the session is over and nothing is retried (the API client ends the session on the next call).
 * Screens that must not miss an event poll the API while `useRealtimeConnected()` is false.
 *
 * This module holds the connection and the message contract (zod schemas); lib/realtime.tsx loads it
 * only once a customer is signed in, so a visitor's first page never downloads it.
 */

export { REALTIME_PATH, type RealtimeEventPayloads, type RealtimeEventType };
export const RECONNECT_BASE_MS = 1_000;
export const RECONNECT_MAX_MS = 30_000;
export const PING_INTERVAL_MS = 25_000;
export const CLOSE_UNAUTHORIZED = REALTIME_CLOSE.unauthorized;

const eventTypes: ReadonlySet<unknown> = new Set(REALTIME_EVENT_TYPES);

export type RealtimeStatus = 'idle' | 'connecting' | 'connected' | 'disconnected' | 'unauthorized';

/**
 * How long to wait before reconnect attempt number `attempt` (0 for the first retry): a ceiling of
 * 1 s · 2^attempt, at most 30 s, and a random point in its upper half, never under 1 s.
 */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** Math.max(0, attempt));
  const jittered = ceiling / 2 + random() * (ceiling / 2);
  return Math.round(Math.min(RECONNECT_MAX_MS, Math.max(RECONNECT_BASE_MS, jittered)));
}

/** ws://host/api/realtime, or wss:// on an https page. */
export function realtimeUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${REALTIME_PATH}`;
}

type SocketLike = Pick<WebSocket, 'send' | 'close' | 'readyState'> & {
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
};

export interface RealtimeClientOptions {
  url: string;
  token: string;
  onStatus: (status: RealtimeStatus) => void;
  onEvent: <K extends RealtimeEventType>(type: K, payload: RealtimeEventPayloads[K]) => void;
  /** The server says events may have been missed while the socket stayed open: read state again. */
  onResync?: () => void;
  createSocket?: (url: string) => SocketLike;
  random?: () => number;
}

/** The connection itself, free of React so its reconnect schedule can be tested with fake timers. */
export class RealtimeClient {
  private socket: SocketLike | null = null;
  private attempt = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private stopped = true;

  constructor(private readonly options: RealtimeClientOptions) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.attempt = 0;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    this.clearTimers();
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onopen = socket.onmessage = socket.onerror = socket.onclose = null;
      socket.close(1000, 'done');
    }
    this.options.onStatus('idle');
  }

  /** Skips the wait after a drop (the browser just came back online). */
  reconnectNow(): void {
    if (this.stopped || this.socket || !this.reconnectTimer) return;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    this.connect();
  }

  private connect(): void {
    this.options.onStatus('connecting');
    let socket: SocketLike;
    try {
      socket = (this.options.createSocket ?? ((url) => new WebSocket(url)))(this.options.url);
    } catch (error) {
      console.warn('Could not open the realtime connection', error);
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => socket.send(JSON.stringify({ type: 'auth', token: this.options.token }));
    socket.onmessage = (event) => this.receive(event.data);
    socket.onerror = () => {
      // A close event follows; that is where reconnecting is decided.
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.clearTimers();
      if (this.stopped) return;
      if (event.code === CLOSE_UNAUTHORIZED) {
        this.options.onStatus('unauthorized');
        return;
      }
      this.options.onStatus('disconnected');
      this.scheduleReconnect();
    };
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    const delay = reconnectDelay(this.attempt, this.options.random);
    this.attempt += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connect();
    }, delay);
  }

  private receive(data: unknown): void {
    if (typeof data !== 'string') return;
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      return;
    }
    const parsed = realtimeServerMessageSchema.safeParse(value);
    if (!parsed.success) {
      // A type this client does not know (a newer server) is ignored; a known one that does not match
      // the contract is a bug worth seeing.
      const type = (value as { type?: unknown } | null)?.type;
      if (eventTypes.has(type)) console.warn(`Unreadable realtime event ${String(type)}`, parsed.error);
      return;
    }
    const message = parsed.data;
    switch (message.type) {
      case 'ready':
        this.attempt = 0;
        this.options.onStatus('connected');
        if (this.pingTimer) clearInterval(this.pingTimer);
        this.pingTimer = setInterval(() => {
          if (this.socket?.readyState === 1) this.socket.send(JSON.stringify({ type: 'ping' }));
        }, PING_INTERVAL_MS);
        return;
      case 'pong':
        return;
      case 'resync':
        this.options.onResync?.();
        return;
      default:
        this.options.onEvent(message.type, message.payload);
    }
  }

  private clearTimers(): void {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.reconnectTimer = null;
    this.pingTimer = null;
  }
}
