import {
  createContext,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import type { RealtimeEventPayloads, RealtimeEventType } from '@offzero/shared/api/realtime';
import type { RealtimeClient, RealtimeStatus } from './realtime-client';
import { useSession } from './session';

/**
 * The realtime channel in React (the connection itself: lib/realtime-client.ts, loaded on demand).
 * Screens listen with `useRealtimeEvent` and ask `useRealtimeConnected()` whether events arrive.
 */

export type { RealtimeEventPayloads, RealtimeEventType, RealtimeStatus };

/**
 * Demo only: with this localStorage entry set to '1', screens skip the polls that back up the realtime
 * channel, so a browser test can prove an update arrived through the channel alone
 * (e2e/realtime-kyc.spec.ts). A production build served in production mode ignores it.
 */
export const REALTIME_ONLY_STORAGE_KEY = 'offzero.realtimeOnly';

export function fallbackPollingDisabled(mode: 'demo' | 'production'): boolean {
  if (mode !== 'demo') return false;
  try {
    return window.localStorage.getItem(REALTIME_ONLY_STORAGE_KEY) === '1';
  } catch {
    // Storage can be unavailable (privacy settings); then the polls stay on.
    return false;
  }
}

// ---------------------------------------------------------------------------------------------------
// React

type Handler = (payload: never) => void;

interface RealtimeContextValue {
  status: () => RealtimeStatus;
  subscribeStatus: (listener: () => void) => () => void;
  subscribeResync: (listener: () => void) => () => void;
  on: <K extends RealtimeEventType>(
    type: K,
    handler: (payload: RealtimeEventPayloads[K]) => void,
  ) => () => void;
}

const RealtimeContext = createContext<RealtimeContextValue | null>(null);

/** Opens the channel while a customer is signed in; screens listen with `useRealtimeEvent`. */
export function RealtimeProvider({ children }: { children: ReactNode }) {
  const token = useSession()?.token ?? null;
  const listeners = useRef(new Map<RealtimeEventType, Set<Handler>>());
  const statusListeners = useRef(new Set<() => void>());
  const resyncListeners = useRef(new Set<() => void>());
  const status = useRef<RealtimeStatus>('idle');

  const value = useMemo<RealtimeContextValue>(
    () => ({
      status: () => status.current,
      subscribeStatus: (listener) => {
        statusListeners.current.add(listener);
        return () => statusListeners.current.delete(listener);
      },
      subscribeResync: (listener) => {
        resyncListeners.current.add(listener);
        return () => resyncListeners.current.delete(listener);
      },
      on: (type, handler) => {
        const set = listeners.current.get(type) ?? new Set<Handler>();
        set.add(handler);
        listeners.current.set(type, set);
        return () => set.delete(handler);
      },
    }),
    [],
  );

  useEffect(() => {
    if (!token) return;
    let client: RealtimeClient | null = null;
    let ended = false;
    const onOnline = () => client?.reconnectNow();
    // The connection and its schemas load with the first signed-in page, not with a visitor's page.
    void import('./realtime-client').then(({ RealtimeClient, realtimeUrl }) => {
      if (ended) return;
      client = new RealtimeClient({
        url: realtimeUrl(),
        token,
        onStatus: (next) => {
          status.current = next;
          for (const listener of statusListeners.current) listener();
        },
        onResync: () => {
          for (const listener of resyncListeners.current) listener();
        },
        onEvent: (type, payload) => {
          for (const handler of listeners.current.get(type) ?? []) {
            try {
              (handler as (payload: unknown) => void)(payload);
            } catch (error) {
              console.error(`A ${type} handler failed`, error);
            }
          }
        },
      });
      client.start();
      window.addEventListener('online', onOnline);
    });
    return () => {
      ended = true;
      window.removeEventListener('online', onOnline);
      client?.stop();
    };
  }, [token]);

  return <RealtimeContext.Provider value={value}>{children}</RealtimeContext.Provider>;
}

/**
 * Calls `handler` for every event of this type while the component is mounted. The latest handler is
 * used, so it may close over fresh state without re-subscribing. Outside a provider it does nothing.
 */
export function useRealtimeEvent<K extends RealtimeEventType>(
  type: K,
  handler: (payload: RealtimeEventPayloads[K]) => void,
): void {
  const context = useContext(RealtimeContext);
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    if (!context) return;
    return context.on(type, (payload) => latest.current(payload));
  }, [context, type]);
}

/**
 * Calls `handler` each time the channel is connected (the first time and after every drop), and when
 * the server says events may have been missed while the socket stayed open (`resync`, after a Redis
 * outage): events are not replayed, so a screen re-reads the state they would have told it (the
 * server's outbox delivers each event once, to the sockets open at that moment).
 */
export function useRealtimeConnectedEffect(handler: () => void): void {
  const context = useContext(RealtimeContext);
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    if (!context) return;
    let wasConnected = context.status() === 'connected';
    const unsubscribe = context.subscribeStatus(() => {
      const connected = context.status() === 'connected';
      if (connected && !wasConnected) latest.current();
      wasConnected = connected;
    });
    const stopResync = context.subscribeResync(() => latest.current());
    return () => {
      unsubscribe();
      stopResync();
    };
  }, [context]);
}

const noStatus = () => () => {};
const idle = (): RealtimeStatus => 'idle';

/** The channel's state; anything but 'connected' means events may be missed. */
export function useRealtimeStatus(): RealtimeStatus {
  const context = useContext(RealtimeContext);
  return useSyncExternalStore(context?.subscribeStatus ?? noStatus, context?.status ?? idle, idle);
}

/** True while events are being delivered. */
export function useRealtimeConnected(): boolean {
  return useRealtimeStatus() === 'connected';
}
