import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSessionToken, jsonResponse, renderWithProviders } from '../test/test-utils';
import { useOrders, useOrdersStayFresh } from './orders';
import { RealtimeProvider } from '../lib/realtime';
import { saveCsrfToken, saveSessionToken } from '../lib/session-storage';

/** A WebSocket stand-in: the test opens, answers and drops each socket the provider makes. */
class FakeSocket {
  static made: FakeSocket[] = [];
  readyState = 0;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.made.push(this);
  }
  send() {}
  close() {}
  ready() {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
    this.onmessage?.(
      new MessageEvent('message', { data: JSON.stringify({ type: 'ready', userId: 'user-1' }) }),
    );
  }
  drop() {
    this.readyState = 3;
    this.onclose?.(new CloseEvent('close', { code: 1006 }));
  }
}

function OrderCount() {
  useOrdersStayFresh();
  const { data } = useOrders();
  return <p>{data ? `${data.length} orders` : 'loading'}</p>;
}

let listCalls = 0;

beforeEach(() => {
  FakeSocket.made = [];
  listCalls = 0;
  vi.stubGlobal('WebSocket', FakeSocket);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      if (input.startsWith('/api/order/list')) {
        listCalls += 1;
        return jsonResponse({ result: { orders: [] } });
      }
      return jsonResponse({ message: 'unexpected', code: 'NOT_FOUND' }, 404);
    }),
  );
  saveSessionToken(fakeSessionToken('user-1'));
  saveCsrfToken('csrf-1');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('orders and the realtime channel', () => {
  it('re-reads the orders when the channel reconnects, so an update sent while it was down is not missed', async () => {
    renderWithProviders(
      <RealtimeProvider>
        <OrderCount />
      </RealtimeProvider>,
    );
    await screen.findByText('0 orders');
    // The connection's code loads on demand (lib/realtime-client.ts), so the socket opens a moment later.
    await waitFor(() => expect(FakeSocket.made).toHaveLength(1));
    const first = FakeSocket.made[0]!;
    act(() => first.ready());
    await waitFor(() => expect(listCalls).toBe(2));

    // The socket drops; an `order-updated` published now reaches nobody.
    act(() => first.drop());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(listCalls).toBe(2);

    // Back online: a new socket, and once it is ready the orders are read again.
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(FakeSocket.made).toHaveLength(2);
    act(() => FakeSocket.made[1]!.ready());
    await waitFor(() => expect(listCalls).toBe(3));
  });
});
