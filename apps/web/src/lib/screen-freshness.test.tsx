import { useState } from 'react';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, Link } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSessionToken, jsonResponse, newCustomerSettings } from '../test/test-utils';
import { saveSessionToken } from './session-storage';
import { useUserSettings } from '../domain/user-settings';
import { followScreens, freshOnThisScreen, markScreenOpened, SCREEN_FRESH_MS } from './screen-freshness';

const settings = newCustomerSettings;
let fetchMock: ReturnType<typeof vi.fn<(input: string) => Promise<Response>>>;
const settingsReads = () =>
  fetchMock.mock.calls.filter(([url]) => url.startsWith('/api/user/settings')).length;

beforeEach(() => {
  fetchMock = vi.fn<(input: string) => Promise<Response>>(async () => jsonResponse({ settings }));
  vi.stubGlobal('fetch', fetchMock);
  saveSessionToken(fakeSessionToken('user-1'));
  markScreenOpened(0);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function SettingsReader({ label }: { label: string }) {
  const read = useUserSettings();
  return <p>{read.data ? `${label} has the settings` : `${label} waits`}</p>;
}

/** A screen whose second part mounts later, as the trade widget does once its code has loaded. */
function Dashboard() {
  const [widgetShown, setWidgetShown] = useState(false);
  return (
    <>
      <SettingsReader label="Tile" />
      <button onClick={() => setWidgetShown(true)}>Show widget</button>
      {widgetShown && <SettingsReader label="Widget" />}
      <Link to="/settings">Settings</Link>
    </>
  );
}

function renderScreens() {
  const router = createMemoryRouter(
    [
      { path: '/dashboard', element: <Dashboard /> },
      { path: '/settings', element: <SettingsReader label="Settings" /> },
    ],
    { initialEntries: ['/dashboard'] },
  );
  const stopFollowing = followScreens(router);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, stopFollowing };
}

describe('records read afresh once per screen', () => {
  // A read that ends in the same millisecond as the next screen opens counts as read on that screen
  // (it is as fresh as the screen). The clock is the test's, so each screen opens a moment after the
  // reads before it, as it does for a person, instead of now and then within the same millisecond.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-02T10:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const aMomentLater = () => vi.setSystemTime(Date.now() + 1_000);

  it('a part of the screen that mounts after the first read shares it; the next screen reads again', async () => {
    const { stopFollowing } = renderScreens();
    expect(await screen.findByText('Tile has the settings')).toBeInTheDocument();
    expect(settingsReads()).toBe(1);

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Show widget' }));
    expect(await screen.findByText('Widget has the settings')).toBeInTheDocument();
    expect(settingsReads()).toBe(1);

    aMomentLater();
    await user.click(screen.getByRole('link', { name: 'Settings' }));
    expect(await screen.findByText('Settings has the settings')).toBeInTheDocument();
    await vi.waitFor(() => expect(settingsReads()).toBe(2));
    stopFollowing();
  });

  it('going back to a screen reads again too', async () => {
    const { router, stopFollowing } = renderScreens();
    expect(await screen.findByText('Tile has the settings')).toBeInTheDocument();
    aMomentLater();
    await act(() => router.navigate('/settings'));
    await vi.waitFor(() => expect(settingsReads()).toBe(2));
    aMomentLater();
    await act(() => router.navigate(-1));
    expect(await screen.findByText('Tile has the settings')).toBeInTheDocument();
    await vi.waitFor(() => expect(settingsReads()).toBe(3));
    stopFollowing();
  });
});

describe('freshOnThisScreen', () => {
  it('is fresh for the app-wide time when read since the screen opened, stale when read before', () => {
    markScreenOpened(1_000);
    expect(freshOnThisScreen({ state: { dataUpdatedAt: 1_000 } })).toBe(SCREEN_FRESH_MS);
    expect(freshOnThisScreen({ state: { dataUpdatedAt: 2_500 } })).toBe(SCREEN_FRESH_MS);
    expect(freshOnThisScreen({ state: { dataUpdatedAt: 999 } })).toBe(0);
  });

  it('never read (dataUpdatedAt 0) counts as stale once a screen has opened', () => {
    markScreenOpened(5);
    expect(freshOnThisScreen({ state: { dataUpdatedAt: 0 } })).toBe(0);
  });
});
