// A realtime client over nginx's WebSocket route that reconnects, as the web app's does.
import { WebSocket } from 'ws';
import { ports } from './harness.mjs';
import { getOk } from './http.mjs';

// --- Realtime: a client that reconnects, and catches up through the API as the web app does ---

export function realtimeClient(customer) {
  const state = {
    readies: 0,
    /** Close codes of sockets that had been ready (an attempt refused while no process is up is not one). */
    closes: [],
    failedAttempts: 0,
    events: [],
    /** Order id → the order as the client last read it (after each event and each reconnection). */
    orders: new Map(),
    socket: null,
    stopped: false,
  };
  // As the web app does (apps/web/src/lib/orders.ts): every order event and every reconnection reads
  // the orders again, one read at a time. An event's own copy of the order is not trusted: one whose
  // delivery was retried after a crash arrives late, carrying the order as it was then.
  let reading = Promise.resolve();
  const catchUp = () => {
    reading = reading
      .then(async () => {
        const { result } = await getOk(`/api/order/list?userId=${customer.userId}`, customer.token);
        for (const order of result.orders) state.orders.set(order._id, order);
      })
      .catch(() => undefined);
  };
  const connect = () => {
    if (state.stopped) return;
    const socket = new WebSocket(`ws://127.0.0.1:${ports.nginx}/api/realtime`);
    let ready = false;
    state.socket = socket;
    socket.on('open', () => socket.send(JSON.stringify({ type: 'auth', token: customer.token })));
    socket.on('message', (data) => {
      const message = JSON.parse(String(data));
      if (message.type === 'ready') {
        ready = true;
        state.readies += 1;
        if (state.readies > 1) catchUp();
      } else if (message.type !== 'pong') {
        state.events.push(message);
        if (message.type === 'order-updated' || message.type === 'new-transaction') catchUp();
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', (code) => {
      if (ready) state.closes.push(code);
      else state.failedAttempts += 1;
      if (code !== 4401) setTimeout(connect, 300).unref();
    });
  };
  connect();
  state.stop = () => {
    state.stopped = true;
    state.socket?.terminate();
  };
  return state;
}
