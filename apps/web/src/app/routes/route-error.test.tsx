import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { RouteErrorPage } from './route-error';

function renderFailingRoute(fail: () => never) {
  const router = createMemoryRouter(
    [
      {
        path: '/',
        loader: fail,
        Component: () => null,
        errorElement: <RouteErrorPage />,
        HydrateFallback: () => null,
      },
    ],
    { initialEntries: ['/'] },
  );
  render(<RouterProvider router={router} />);
}

describe('RouteErrorPage', () => {
  it('shows the application error heading and a way home when a page fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderFailingRoute(() => {
      throw new Error('boom');
    });
    expect(await screen.findByRole('heading', { name: 'Unexpected Application Error!' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'OffZero home' })).toHaveAttribute('href', '/');
    expect(screen.queryByText('boom')).not.toBeInTheDocument();
  });

  it('shows the not-found message for a 404 response', async () => {
    renderFailingRoute(() => {
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- React Router's idiom for an HTTP error
      throw new Response('Not Found', { status: 404 });
    });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.queryByText('Unexpected Application Error!')).not.toBeInTheDocument();
  });
});
