import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders, testConfig } from '../../test/test-utils';
import { SocialLinks } from './social-links';

describe('SocialLinks', () => {
  it("links each of the configured accounts by name, in a new tab that cannot reach back to OffZero's", () => {
    renderWithProviders(<SocialLinks className="gap-2" buttonSize="size-9" />);
    const list = screen.getByRole('list', { name: 'OffZero on social media' });
    const links = within(list).getAllByRole('link');
    expect(links.map((link) => [link.getAttribute('aria-label'), link.getAttribute('href')])).toEqual([
      ['OffZero on X', testConfig.social.x],
      ['OffZero on Facebook', testConfig.social.facebook],
      ['OffZero on LinkedIn', testConfig.social.linkedin],
    ]);
    for (const link of links) {
      expect(link).toHaveAttribute('target', '_blank');
      expect(link).toHaveAttribute('rel', 'noopener noreferrer');
      expect(link).toHaveClass('size-9');
    }
  });
});
