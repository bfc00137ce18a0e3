import { REFERRAL_CODE_PATTERN } from '@offzero/shared/api/user-settings';

/** The 64-character URL-safe alphabet referral codes are made of. */
const REFERRAL_CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const REFERRAL_CODE_LENGTH = 16;

/**
 * A new referral code, made in the browser as the specification says: 16 characters, each picked by
 * a cryptographically secure random byte. 256 is a multiple of 64, so `byte & 63` picks every
 * character with the same chance. The server refuses a code that is already taken (409), and the
 * customer simply generates another.
 */
export function generateReferralCode(random: Pick<Crypto, 'getRandomValues'> = crypto): string {
  const bytes = random.getRandomValues(new Uint8Array(REFERRAL_CODE_LENGTH));
  let code = '';
  for (const byte of bytes) code += REFERRAL_CODE_ALPHABET[byte & 63];
  if (!REFERRAL_CODE_PATTERN.test(code)) throw new Error('generated referral code has the wrong shape');
  return code;
}

/** The link a customer shares: the site's address plus /register/?ref={code}. */
export function referralLink(code: string, origin = window.location.origin): string {
  return `${origin}/register/?ref=${encodeURIComponent(code)}`;
}
