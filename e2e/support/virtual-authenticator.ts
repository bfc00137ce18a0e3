import type { CDPSession, Page } from '@playwright/test';

/**
 * Chromium's virtual WebAuthn authenticator on `page`, with user verification, answering every dialog:
 * `internal` stands for a phone's fingerprint reader (a customer's), `usb` for a security key with a
 * PIN (an operator's). Answers the session, to read its credentials back.
 */
export async function addVirtualAuthenticator(
  page: Page,
  transport: 'internal' | 'usb',
): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport,
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}
