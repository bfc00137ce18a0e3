import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DEFERRED_LOADING_MARK,
  DEFERRED_READY_MARK,
  DEFERRED_UNTIL_VISIBLE_ATTRIBUTE,
  deferredComponent,
} from './deferred-component';
import { markInteractive } from './interactive';

/** An IntersectionObserver the test drives: it says when the observed block is on screen. */
class FakeIntersectionObserver {
  static instances: FakeIntersectionObserver[] = [];
  readonly observed: Element[] = [];
  disconnected = false;
  constructor(private readonly callback: IntersectionObserverCallback) {
    FakeIntersectionObserver.instances.push(this);
  }
  observe(element: Element) {
    this.observed.push(element);
  }
  disconnect() {
    this.disconnected = true;
  }
  show(isIntersecting: boolean) {
    const entries = this.observed.map((target) => ({ target, isIntersecting }) as IntersectionObserverEntry);
    this.callback(entries, this as unknown as IntersectionObserver);
  }
}

const marks = (name: string) => performance.getEntriesByName(name).length;

/** A deferred widget whose code "downloads" when asked, counting how often it is asked. */
function widgetLoader() {
  const load = vi.fn(async () => {
    await Promise.resolve();
    return function Widget({ label }: { label: string }) {
      return <p>{label}</p>;
    };
  });
  return load;
}

/** A widget that waits to be on screen, with the deferred marks' counts before it was made. */
function setUpWidgetUntilVisible() {
  const load = widgetLoader();
  const Widget = deferredComponent(load, <p>Loading widget</p>, { untilVisible: true });
  return {
    load,
    Widget,
    loadingBefore: marks(DEFERRED_LOADING_MARK),
    readyBefore: marks(DEFERRED_READY_MARK),
  };
}

/** Lets the lazy component's promise chain and React's retry run. */
async function settle() {
  await act(async () => {
    for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

beforeEach(() => {
  markInteractive();
  FakeIntersectionObserver.instances = [];
  vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('deferredComponent until visible', () => {
  it('downloads nothing while the block is off screen, then loads and shows the component once it is on screen', async () => {
    const { load, Widget, loadingBefore, readyBefore } = setUpWidgetUntilVisible();

    const { container } = render(<Widget label="Buy bitcoin" />);
    await settle();
    const block = container.querySelector(`[${DEFERRED_UNTIL_VISIBLE_ATTRIBUTE}]`);
    expect(block).not.toBeNull();
    expect(block?.getAttribute(DEFERRED_UNTIL_VISIBLE_ATTRIBUTE)).toBe('');
    expect(screen.getByText('Loading widget')).toBeInTheDocument();
    expect(load).not.toHaveBeenCalled();
    expect(marks(DEFERRED_LOADING_MARK)).toBe(loadingBefore);

    const [observer] = FakeIntersectionObserver.instances;
    expect(observer?.observed).toEqual([block]);
    act(() => observer!.show(false));
    await settle();
    expect(load).not.toHaveBeenCalled();

    act(() => observer!.show(true));
    await settle();
    expect(await screen.findByText('Buy bitcoin')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
    expect(observer?.disconnected).toBe(true);
    expect(block?.getAttribute(DEFERRED_UNTIL_VISIBLE_ATTRIBUTE)).toBe('opened');
    expect(marks(DEFERRED_LOADING_MARK)).toBe(loadingBefore + 1);
    expect(marks(DEFERRED_READY_MARK)).toBe(readyBefore + 1);
  });

  it('leaves the marks balanced when the block goes away before it was ever on screen', async () => {
    const { load, Widget, loadingBefore, readyBefore } = setUpWidgetUntilVisible();

    const { unmount } = render(<Widget label="Sell bitcoin" />);
    await settle();
    unmount();
    expect(FakeIntersectionObserver.instances[0]?.disconnected).toBe(true);
    expect(load).not.toHaveBeenCalled();
    expect(marks(DEFERRED_LOADING_MARK)).toBe(loadingBefore);
    expect(marks(DEFERRED_READY_MARK)).toBe(readyBefore);
  });

  it('loads at once where the browser has no IntersectionObserver', async () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    const { load, Widget } = setUpWidgetUntilVisible();

    render(<Widget label="Quote" />);
    expect(await screen.findByText('Quote')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('opens the block of a component whose code is already there without waiting for the screen', async () => {
    const { load, Widget } = setUpWidgetUntilVisible();
    const first = render(<Widget label="First" />);
    await settle();
    act(() => FakeIntersectionObserver.instances[0]!.show(true));
    expect(await screen.findByText('First')).toBeInTheDocument();
    first.unmount();

    const { container } = render(<Widget label="Again" />);
    expect(screen.getByText('Again')).toBeInTheDocument();
    expect(
      container
        .querySelector(`[${DEFERRED_UNTIL_VISIBLE_ATTRIBUTE}]`)
        ?.getAttribute(DEFERRED_UNTIL_VISIBLE_ATTRIBUTE),
    ).toBe('opened');
    expect(FakeIntersectionObserver.instances).toHaveLength(1);
    expect(load).toHaveBeenCalledTimes(1);
  });
});

describe('deferredComponent without untilVisible', () => {
  it('loads once the page is interactive, off screen or not, with no block around it', async () => {
    const load = widgetLoader();
    const Widget = deferredComponent(load, <p>Loading form</p>);

    const { container } = render(<Widget label="Sign in" />);
    expect(await screen.findByText('Sign in')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
    expect(container.querySelector(`[${DEFERRED_UNTIL_VISIBLE_ATTRIBUTE}]`)).toBeNull();
    expect(FakeIntersectionObserver.instances).toHaveLength(0);
  });
});
