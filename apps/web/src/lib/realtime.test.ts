import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REALTIME_EVENT_TYPES, type RealtimeEvent } from '@offzero/shared/api/realtime';
import { fallbackPollingDisabled, REALTIME_ONLY_STORAGE_KEY } from './realtime';
import {
  PING_INTERVAL_MS,
  RealtimeClient,
  reconnectDelay,
  realtimeUrl,
  type RealtimeClientOptions,
  type RealtimeStatus,
} from './realtime-client';

/** A WebSocket stand-in the test drives by hand. */
class FakeSocket {
  readyState = 0;
  sent: string[] = [];
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  closedWith: number | null = null;
  constructor(readonly url: string) {}
  send(text: string) {
    this.sent.push(text);
  }
  close(code = 1000) {
    this.closedWith = code;
  }
  open() {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  receive(message: object) {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(message) }));
  }
  drop(code = 1006) {
    this.readyState = 3;
    this.onclose?.(new CloseEvent('close', { code }));
  }
}

const sampleOrder = {
  _id: 'o2',
  userId: 'u1',
  pair: 'BTC-USD',
  type: 'sell' as const,
  amount: 0.015,
  price: 60_000,
  value: 900,
  platformFee: 9,
  networkFee: 0,
  bankFee: 0,
  status: 'processing' as const,
  createdAt: '2025-01-01T00:00:00.000Z',
  expiresAt: '2025-01-01T00:15:00.000Z',
  txn: 'cd'.repeat(32),
  bankTxn: null,
  walletAddress: { address: 'tb1qexample', amount: 0.015 },
  confirmations: 1,
  flag: null,
  payment: null,
};

function harness(random = () => 0.5) {
  const sockets: FakeSocket[] = [];
  const statuses: RealtimeStatus[] = [];
  const events: [string, unknown][] = [];
  const resyncs = { count: 0 };
  const options: RealtimeClientOptions = {
    url: 'ws://localhost/api/realtime',
    token: 'session-token',
    onStatus: (status) => statuses.push(status),
    onEvent: (type, payload) => events.push([type, payload]),
    onResync: () => (resyncs.count += 1),
    createSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    random,
  };
  const client = new RealtimeClient(options);
  const last = () => sockets[sockets.length - 1]!;
  return { client, sockets, statuses, events, resyncs, last };
}

describe('reconnectDelay', () => {
  it('doubles from 1 s to at most 30 s, jittered within the upper half', () => {
    const low = [0, 1, 2, 3, 4, 5, 6, 10].map((attempt) => reconnectDelay(attempt, () => 0));
    const high = [0, 1, 2, 3, 4, 5, 6, 10].map((attempt) => reconnectDelay(attempt, () => 1));
    expect(low).toEqual([1_000, 1_000, 2_000, 4_000, 8_000, 15_000, 15_000, 15_000]);
    expect(high).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
    expect(reconnectDelay(3, () => 0.5)).toBe(6_000);
  });
});

describe('RealtimeClient', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('authenticates with its first message and delivers events once ready', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { client, last, statuses, events } = harness();
    client.start();
    last().open();
    expect(JSON.parse(last().sent[0]!)).toEqual({ type: 'auth', token: 'session-token' });
    expect(statuses).toEqual(['connecting']);

    last().receive({ type: 'ready', userId: 'u1' });
    expect(statuses.at(-1)).toBe('connected');
    last().receive({ type: 'new-transaction', payload: { amount: 0.0025, _id: 'o1', txn: 'ab'.repeat(32) } });
    last().receive({ type: 'new-transaction', payload: { amount: 'lots' } }); // unreadable: dropped
    last().receive({ type: 'something-else', payload: {} });
    expect(events).toEqual([['new-transaction', { amount: 0.0025, _id: 'o1', txn: 'ab'.repeat(32) }]]);
  });

  it('asks the page to re-read its state when the server says events may have been missed', () => {
    const { client, last, statuses, events, resyncs } = harness();
    client.start();
    last().open();
    last().receive({ type: 'ready', userId: 'u1' });
    expect(resyncs.count).toBe(0);
    last().receive({ type: 'resync' });
    expect(resyncs.count).toBe(1);
    // The socket stays as it is: no reconnect, no status change, no event.
    expect(statuses.at(-1)).toBe('connected');
    expect(events).toEqual([]);
  });

  it('forwards kyc-updated, so an identity decision reaches the open page', () => {
    const { client, last, events } = harness();
    client.start();
    last().open();
    last().receive({ type: 'ready', userId: 'u1' });
    last().receive({ type: 'kyc-updated', payload: { status: 'GREEN' } });
    last().receive({ type: 'kyc-updated', payload: { status: 'RED', reviewer: 'ops@offzero.example' } });
    expect(events).toEqual([
      ['kyc-updated', { status: 'GREEN' }],
      ['kyc-updated', { status: 'RED' }],
    ]);
  });

  it('forwards every event type the shared contract defines', () => {
    const samples: Record<RealtimeEvent['type'], RealtimeEvent> = {
      'new-transaction': {
        type: 'new-transaction',
        payload: { amount: 0.0025, _id: 'o1', txn: 'ab'.repeat(32) },
      },
      'order-updated': { type: 'order-updated', payload: { order: sampleOrder } },
      'kyc-updated': { type: 'kyc-updated', payload: { status: 'YELLOW' } },
    };
    const { client, last, events } = harness();
    client.start();
    last().open();
    last().receive({ type: 'ready', userId: 'u1' });
    for (const type of REALTIME_EVENT_TYPES) last().receive(samples[type]);
    expect(events).toEqual(REALTIME_EVENT_TYPES.map((type) => [type, samples[type].payload]));
  });

  it('pings every 25 seconds while connected', () => {
    const { client, last } = harness();
    client.start();
    last().open();
    last().receive({ type: 'ready', userId: 'u1' });
    vi.advanceTimersByTime(PING_INTERVAL_MS - 1);
    expect(last().sent).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(JSON.parse(last().sent[1]!)).toEqual({ type: 'ping' });
    vi.advanceTimersByTime(PING_INTERVAL_MS * 2);
    expect(last().sent).toHaveLength(4);
  });

  it('reconnects with exponential backoff, and starts over after a successful connection', () => {
    // random() = 1: the delays are the ceilings 1, 2, 4, 8, 16, 30, 30 s.
    const { client, sockets, last, statuses } = harness(() => 1);
    client.start();
    const expected = [1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000];
    for (const delay of expected) {
      const before = sockets.length;
      last().drop();
      expect(statuses.at(-1)).toBe('disconnected');
      vi.advanceTimersByTime(delay - 1);
      expect(sockets).toHaveLength(before);
      vi.advanceTimersByTime(1);
      expect(sockets).toHaveLength(before + 1);
    }

    // Connected again: the next drop waits 1 s once more.
    last().open();
    last().receive({ type: 'ready', userId: 'u1' });
    last().drop();
    const before = sockets.length;
    vi.advanceTimersByTime(999);
    expect(sockets).toHaveLength(before);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(before + 1);
  });

  it('never reconnects after 4401 (the session is over)', () => {
    const { client, sockets, last, statuses } = harness();
    client.start();
    last().open();
    last().drop(4401);
    expect(statuses.at(-1)).toBe('unauthorized');
    vi.advanceTimersByTime(120_000);
    expect(sockets).toHaveLength(1);
  });

  it('stops for good when stopped', () => {
    const { client, sockets, last } = harness();
    client.start();
    const socket = last();
    socket.open();
    client.stop();
    expect(socket.closedWith).toBe(1000);
    socket.drop();
    vi.advanceTimersByTime(120_000);
    expect(sockets).toHaveLength(1);
  });
});

it('uses wss on an https page', () => {
  expect(realtimeUrl({ protocol: 'https:', host: 'offzero.com' })).toBe('wss://offzero.com/api/realtime');
  expect(realtimeUrl({ protocol: 'http:', host: 'localhost:3000' })).toBe('ws://localhost:3000/api/realtime');
});

describe('the demo-only realtime-only switch', () => {
  afterEach(() => localStorage.clear());

  it('turns the fallback polls off in demo mode only, and only when set to 1', () => {
    expect(fallbackPollingDisabled('demo')).toBe(false);
    localStorage.setItem(REALTIME_ONLY_STORAGE_KEY, '1');
    expect(fallbackPollingDisabled('demo')).toBe(true);
    expect(fallbackPollingDisabled('production')).toBe(false);
    localStorage.setItem(REALTIME_ONLY_STORAGE_KEY, 'yes');
    expect(fallbackPollingDisabled('demo')).toBe(false);
  });
});
