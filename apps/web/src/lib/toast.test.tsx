import { act, render, screen, waitForElementToBeRemoved } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// Each test starts from a page that has not shown a toast yet: the module keeps whether its library
// has loaded, so it is imported afresh.
async function freshToasts() {
  vi.resetModules();
  const toasts = await import('./toast');
  const { ToastArea } = await import('../components/ui/toast-area');
  return { ...toasts, ToastArea };
}

describe('toasts', () => {
  beforeEach(() => {
    // jsdom has no matchMedia; the library asks it whether the customer prefers reduced motion.
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: false,
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
  });
  afterEach(() => {
    vi.doUnmock('react-hot-toast');
    vi.unstubAllGlobals();
  });

  it('loads the toast library only with the first toast, and the area shows what was raised meanwhile, in order', async () => {
    const { toast, loadedToastLibrary, ToastArea } = await freshToasts();
    const { container } = render(<ToastArea />);
    expect(loadedToastLibrary()).toBeNull();
    expect(container).toBeEmptyDOMElement();

    toast.success('Text Copied!');
    toast.error('Enter a valid email');
    toast('Your authenticator app shows a new code every 30 seconds.');

    // Bottom-right toasts stack upwards: the newest comes first in the page.
    const shown = await screen.findAllByRole('status');
    expect(shown.map((element) => element.textContent)).toEqual([
      'Your authenticator app shows a new code every 30 seconds.',
      'Enter a valid email',
      'Text Copied!',
    ]);
    expect(loadedToastLibrary()).not.toBeNull();
  });

  it('shows a later toast at once, and takes each away after the area’s 2 seconds', async () => {
    const { toast, ToastArea } = await freshToasts();
    render(<ToastArea />);
    toast.success('Saved.');
    await screen.findByText('Saved.');

    const raisedAt = Date.now();
    act(() => toast.error('Login failed!'));
    expect(screen.getByText('Login failed!')).toBeInTheDocument();
    // The library keeps a dismissed toast a second for its exit animation, then removes it.
    await waitForElementToBeRemoved(() => screen.queryByText('Login failed!'), { timeout: 5_000 });
    expect(Date.now() - raisedAt).toBeGreaterThanOrEqual(2_000);
    expect(screen.queryByText('Saved.')).not.toBeInTheDocument();
  });

  it('lets a toast with an id take the place of the one shown with it', async () => {
    const { toast, ToastArea } = await freshToasts();
    render(<ToastArea />);
    toast.error('Enter your legal name.', { id: 'w9' });
    toast.error('Enter your street address.', { id: 'w9' });
    const shown = await screen.findAllByRole('status');
    expect(shown.map((element) => element.textContent)).toEqual(['Enter your street address.']);
  });

  it('keeps toasts whose code failed to download and shows them with the next toast', async () => {
    let failNext = true;
    vi.doMock('react-hot-toast', async (importOriginal) => {
      if (failNext) {
        failNext = false;
        throw new Error('Failed to fetch dynamically imported module');
      }
      return importOriginal();
    });
    const { toast, loadedToastLibrary, ToastArea } = await freshToasts();
    render(<ToastArea />);

    toast.error('Settings are not available.');
    await vi.waitFor(() => expect(failNext).toBe(false));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(loadedToastLibrary()).toBeNull();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();

    toast.success('Text Copied!');
    const shown = await screen.findAllByRole('status');
    expect(shown.map((element) => element.textContent)).toEqual([
      'Text Copied!',
      'Settings are not available.',
    ]);
  });
  it.each([
    [390, 'top'],
    [1280, 'bottom'],
  ])('at %s px shows toasts at the %s, letting every click through to what is below', async (width, edge) => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === '(min-width: 640px)' && width >= 640,
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    const { toast, ToastArea } = await freshToasts();
    render(<ToastArea />);
    toast.error('Enter a valid email');
    const message = await screen.findByRole('status');
    const bar = message.parentElement!;
    expect(bar.style.pointerEvents).toBe('none');
    const placed = bar.parentElement!;
    expect(placed.style[edge === 'top' ? 'top' : 'bottom']).toBe('0px');
    expect(placed.style[edge === 'top' ? 'bottom' : 'top']).toBe('');
  });
});
