import {
  createContext,
  lazy,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
  type ComponentType,
  type ReactNode,
} from 'react';
import { whenInteractive } from './interactive';

/**
 * Marks for the browser tests (e2e/support/interactive.ts waits until there are as many `ready` as
 * `loading`): `loading` when a deferred component mounts before its code is there (set in an effect, so
 * before the root layout's interactive mark; on a prerendered page React reaches the inside of the
 * boundary, and asks for the code, only later), or, for one that waits to be on screen, when it comes
 * on screen; then one `ready` once its code has mounted, or once it is unmounted before that (a
 * signed-in visitor's /login hydrates the form, then leaves for the dashboard).
 */
export const DEFERRED_LOADING_MARK = 'offzero:deferred-loading';
export const DEFERRED_READY_MARK = 'offzero:deferred-ready';

const preloads: (() => Promise<unknown>)[] = [];

/** Tells the deferred component around it that its code has mounted. */
const SettleContext = createContext<(() => void) | null>(null);

/**
 * Loads the code of every deferred component declared so far (those of the modules already loaded):
 * for the build's prerendering, so the HTML holds their markup rather than their fallback, and for the
 * unit tests (src/test/setup.ts), which render the components as a customer sees them once loaded.
 */
export async function loadDeferredComponents(): Promise<void> {
  await Promise.all(preloads.map((preload) => preload()));
}

export type DeferredComponent<P extends object> = ((props: P) => ReactNode) & {
  /** Loads the code ahead of its first use (once the page is interactive), so it shows at once. */
  preload: () => Promise<unknown>;
};

/**
 * A component whose code loads only once the page is interactive. On a prerendered page its server
 * markup stays on screen meanwhile (React hydrates it when the code arrives), so the first page's
 * download and start-up hold only what the rest of the page needs. After client-side navigation it
 * shows `fallback` until the code has loaded (once per browser tab).
 */
export interface DeferredOptions {
  /**
   * Also wait until the component is on screen (an IntersectionObserver on a block around it): for a
   * part that a phone shows only once the visitor scrolls, so the first screen's start-up does not pay
   * for it. Where the browser has no IntersectionObserver it loads as without this.
   */
  untilVisible?: boolean;
}

/**
 * The attribute of the block around a component that waits to be on screen: empty until it has come on
 * screen (or was loaded already), then `opened`. The browser tests bring such blocks into view.
 */
export const DEFERRED_UNTIL_VISIBLE_ATTRIBUTE = 'data-deferred-until-visible';

export function deferredComponent<P extends object>(
  load: () => Promise<ComponentType<P>>,
  fallback: ReactNode,
  { untilVisible = false }: DeferredOptions = {},
): DeferredComponent<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const loadOnce = () => {
    loading ??= load().then(
      (component) => (loaded = withReadyMark(component)),
      (error: unknown) => {
        loading = null; // A failed download is tried again on the next use.
        throw error;
      },
    );
    return loading;
  };
  preloads.push(loadOnce);
  // Opened when an instance first comes on screen (at once unless `untilVisible`).
  let openGate: () => void = () => {};
  const gate = untilVisible ? new Promise<void>((resolve) => (openGate = resolve)) : Promise.resolve();
  const Lazy = lazy(async () => {
    await whenInteractive();
    await gate;
    return { default: await loadOnce() };
  }) as unknown as ComponentType<P>;

  function Deferred(props: P) {
    // Chosen once per mount: switching from the lazy wrapper to the loaded component on a later render
    // would remount it and lose its state.
    const [Component] = useState(() => loaded ?? Lazy);
    const block = useRef<HTMLDivElement>(null);
    const marked = useRef<'no' | 'loading' | 'ready'>('no');
    const settle = useCallback(() => {
      if (marked.current !== 'loading') return;
      marked.current = 'ready';
      performance.mark(DEFERRED_READY_MARK);
    }, []);
    useEffect(() => {
      const element = block.current;
      // Set on the element itself, not rendered: the server's markup and the first render stay equal.
      const opened = () => element?.setAttribute(DEFERRED_UNTIL_VISIBLE_ATTRIBUTE, 'opened');
      if (Component !== Lazy) {
        opened();
        return;
      }
      const startLoading = () => {
        if (marked.current !== 'no') return;
        marked.current = 'loading';
        performance.mark(DEFERRED_LOADING_MARK);
        opened();
        openGate();
      };
      if (!element || typeof IntersectionObserver === 'undefined') {
        startLoading();
        return settle;
      }
      const observer = new IntersectionObserver((entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        startLoading();
      });
      observer.observe(element);
      return () => {
        observer.disconnect();
        settle();
      };
    }, [Component, settle]);
    const content = (
      <SettleContext.Provider value={Component === Lazy ? settle : null}>
        <Suspense fallback={fallback}>
          <Component {...props} />
        </Suspense>
      </SettleContext.Provider>
    );
    // The block is there on the server too, so the prerendered markup and the first render agree.
    if (!untilVisible) return content;
    return (
      <div ref={block} {...{ [DEFERRED_UNTIL_VISIBLE_ATTRIBUTE]: '' }}>
        {content}
      </div>
    );
  }
  return Object.assign(Deferred, { preload: () => whenInteractive().then(loadOnce) });
}

function withReadyMark<P extends object>(Component: ComponentType<P>): ComponentType<P> {
  function Ready(props: P) {
    const settle = useContext(SettleContext);
    useEffect(() => settle?.(), [settle]);
    return <Component {...props} />;
  }
  return Ready;
}
