import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Link } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useNavigationDrawer } from './use-navigation-drawer';

let openings = 0;

function Layout() {
  const drawer = useNavigationDrawer({ drawerId: 'drawer', beforeOpen: () => (openings += 1) });
  return (
    <>
      <button {...drawer.toggleButtonProps}>Menu</button>
      {drawer.isOpen && (
        <nav id="drawer" aria-label="Drawer">
          <button {...drawer.closeButtonProps}>Close</button>
          <Link to="/about">About</Link>
        </nav>
      )}
      <Link to="/settings">Settings</Link>
    </>
  );
}

/** The drawer's own close button (the menu button is named "Close menu" too while the drawer is open). */
function drawerCloseButton() {
  return within(screen.getByRole('navigation', { name: 'Drawer' })).getByRole('button', {
    name: 'Close menu',
  });
}

function renderLayout() {
  render(
    <MemoryRouter initialEntries={['/']}>
      <Layout />
    </MemoryRouter>,
  );
  openings = 0;
  return { user: userEvent.setup(), menu: screen.getByRole('button', { name: 'Open menu' }) };
}

describe('useNavigationDrawer', () => {
  it('opens with the focus on its close button and the page behind held still', async () => {
    const { user, menu } = renderLayout();
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    expect(menu).toHaveAttribute('aria-controls', 'drawer');
    await user.click(menu);
    expect(menu).toHaveAttribute('aria-expanded', 'true');
    expect(menu).toHaveAccessibleName('Close menu');
    expect(openings).toBe(1);
    expect(drawerCloseButton()).toHaveFocus();
    expect(document.body.style.overflow).toBe('hidden');
  });

  it('closes on Escape, gives the focus back to the menu button and lets the page scroll again', async () => {
    const { user, menu } = renderLayout();
    await user.click(menu);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('navigation', { name: 'Drawer' })).not.toBeInTheDocument();
    expect(menu).toHaveFocus();
    expect(document.body.style.overflow).toBe('');
  });

  it('closes from its close button, giving the focus back to the menu button', async () => {
    const { user, menu } = renderLayout();
    await user.click(menu);
    await user.click(drawerCloseButton());
    expect(screen.queryByRole('navigation', { name: 'Drawer' })).not.toBeInTheDocument();
    expect(menu).toHaveFocus();
  });

  it('closes on any navigation, from inside the drawer or not', async () => {
    const { user, menu } = renderLayout();
    await user.click(menu);
    await user.click(screen.getByRole('link', { name: 'About' }));
    expect(screen.queryByRole('navigation', { name: 'Drawer' })).not.toBeInTheDocument();
    expect(document.body.style.overflow).toBe('');

    await user.click(menu);
    expect(screen.getByRole('navigation', { name: 'Drawer' })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Settings' }));
    expect(screen.queryByRole('navigation', { name: 'Drawer' })).not.toBeInTheDocument();
  });

  it('answers Escape only while open', async () => {
    const { user, menu } = renderLayout();
    const settings = screen.getByRole('link', { name: 'Settings' });
    settings.focus();
    await user.keyboard('{Escape}');
    expect(settings).toHaveFocus();
    expect(menu).toHaveAttribute('aria-expanded', 'false');
  });
});
