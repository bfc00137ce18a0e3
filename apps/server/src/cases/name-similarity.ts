/**
 * Whether a bank account's holder name is the customer's verified (KYC) name. Bank records shorten,
 * reorder and strip names, so an exact comparison would open a case for nearly every customer; the rule
 * here accepts what banks really do and nothing looser:
 *
 * 1. Both names are normalised: accents removed (NFKD), lower case, every character that is not a
 *    letter becomes a space, and titles and suffixes (mr, mrs, ms, miss, dr, jr, sr, ii, iii, iv) drop.
 * 2. They match when the KYC name's first and last words both appear among the holder name's words, in
 *    any order ("DOE JANE" is "Jane Q. Doe"); the first name may be an initial ("J Doe").
 * 3. They also match when the two names are the same letters once the spaces go ("Ann Mac Donald" is
 *    "Ann MacDonald").
 * Anything else is a mismatch ("John Smith" for "Jane Doe", or "Jane Smith" for "Jane Doe").
 */

const DROPPED_WORDS = new Set(['mr', 'mrs', 'ms', 'miss', 'dr', 'jr', 'sr', 'ii', 'iii', 'iv']);

export function nameWords(name: string): string[] {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}]+/gu, ' ')
    .split(' ')
    .filter((word) => word.length > 0 && !DROPPED_WORDS.has(word));
}

/** The normalised form stored as evidence and used to recognise the same holder name again. */
export function normaliseName(name: string): string {
  return nameWords(name).join(' ');
}

export function namesMatch(kycName: string, holderName: string): boolean {
  const kyc = nameWords(kycName);
  const holder = nameWords(holderName);
  if (kyc.length === 0 || holder.length === 0) return false;
  if (kyc.join('') === holder.join('')) return true;
  const first = kyc[0] ?? '';
  const last = kyc[kyc.length - 1] ?? '';
  const holderSet = new Set(holder);
  const firstPresent = holderSet.has(first) || holder.some((word) => word.length === 1 && word === first[0]);
  if (kyc.length === 1) return holderSet.has(first);
  return firstPresent && holderSet.has(last);
}
