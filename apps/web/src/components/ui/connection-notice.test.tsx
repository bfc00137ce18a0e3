import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectionNotice } from './connection-notice';

afterEach(() => vi.restoreAllMocks());

describe('ConnectionNotice', () => {
  it('says the connection is lost while the browser is offline, and goes once it is back', () => {
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    render(<ConnectionNotice />);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    onLine.mockReturnValue(false);
    act(() => void window.dispatchEvent(new Event('offline')));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'You are offline. What you entered is kept: try again once you are back online.',
    );

    onLine.mockReturnValue(true);
    act(() => void window.dispatchEvent(new Event('online')));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
