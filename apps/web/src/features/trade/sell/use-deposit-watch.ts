import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Order } from '@offzero/shared/api/orders';
import { toast } from '../../../lib/toast';
import { useRealtimeConnected, useRealtimeEvent } from '../../../lib/realtime';
import { ordersQueryKey, useOrders } from '../../../domain/orders';
import { formatExactBtc, satsOf } from '../../../lib/format';
import type { SellStep } from './sell-step';

/** While the realtime channel is down, the open sell order is read this often instead. */
export const DEPOSIT_POLL_MS = 5_000;

/**
 * Waiting for the deposit of the order on the deposit screen: realtime events, and polling while the
 * channel is down. The deposit moves the flow to its success step once; a closed order is told.
 * Returns what forgets the order handled last, for a new order.
 */
export function useDepositWatch(
  state: SellStep,
  setState: (next: SellStep) => void,
  setClosed: (status: string | null) => void,
): () => void {
  const queryClient = useQueryClient();
  const watching = state.step === 'QRCODE' ? state.order : null;
  const connected = useRealtimeConnected();
  const poll = useOrders({
    limit: 20,
    enabled: watching !== null,
    refetchInterval: watching && !connected ? DEPOSIT_POLL_MS : false,
  });
  const handled = useRef<string | null>(null);

  function received(order: Order, amountBtc: number, txid: string) {
    if (handled.current === order._id) return;
    handled.current = order._id;
    const amountSats = satsOf(amountBtc);
    toast.success(
      `${amountSats === null ? amountBtc : formatExactBtc(amountSats)} BTC received successfully`,
    );
    setState({ step: 'success', order, txid, amountSats });
    void queryClient.invalidateQueries({ queryKey: ordersQueryKey });
  }

  function check(order: Order) {
    if (!watching || order._id !== watching._id) return;
    if (order.txn) received(order, order.amount, order.txn);
    else if (order.status === 'expired' || order.status === 'cancelled') setClosed(order.status);
  }

  useRealtimeEvent('new-transaction', (payload) => {
    if (watching && payload._id === watching._id) received(watching, payload.amount, payload.txn);
  });
  useRealtimeEvent('order-updated', ({ order }) => check(order));

  const { refetch } = poll;
  const pollEnabled = watching !== null;
  useEffect(() => {
    // Back online: whatever happened meanwhile is read once.
    if (connected && pollEnabled) void refetch();
  }, [connected, pollEnabled, refetch]);

  const polled = poll.data;
  useEffect(() => {
    const order = polled?.find((candidate) => candidate._id === watching?._id);
    if (order) check(order);
    // `check` reads the latest state; only new poll answers matter here.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [polled]);

  return () => {
    handled.current = null;
  };
}
