/** How many leading and trailing characters each kind of long value keeps on screen. */
export const SHORTEN = { address: 8, id: 6, referralLink: 12 } as const;

const ELLIPSIS = '...';

/**
 * 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4' with keep 8 → 'bc1qw508...7kv8f3t4'. Text of at most
 * 2·keep + 3 characters is returned as it is, since shortening it would save nothing.
 *
 * Characters are counted as code points, so an emoji is never cut in half; for the ASCII addresses, ids
 * and links this is used for, that is the same as `text.length`.
 */
export function shortenText(text: string, keep: number): string {
  if (!Number.isSafeInteger(keep) || keep < 0) {
    throw new RangeError(`shortenText keeps a whole number of characters, not ${keep}.`);
  }
  const characters = Array.from(text);
  if (characters.length <= 2 * keep + ELLIPSIS.length) return text;
  // slice(-0) would be the whole text, so the tail is cut from an explicit start.
  const head = characters.slice(0, keep).join('');
  const tail = characters.slice(characters.length - keep).join('');
  return head + ELLIPSIS + tail;
}
