import { describe, expect, it } from 'vitest';
import { namesMatch, normaliseName } from './name-similarity';

describe('namesMatch', () => {
  it.each([
    ['Jane Q. Doe', 'DOE JANE'],
    ['Jane Q. Doe', 'J Doe'],
    ['Jane Doe', 'Mrs. Jane Doe'],
    ['José Álvarez', 'JOSE ALVAREZ'],
    ['Ann Mac Donald', 'Ann MacDonald'],
    ['Jane Doe', 'Jane Doe-Smith'],
    ['Cher', 'CHER'],
  ])('%s is %s', (kyc, holder) => expect(namesMatch(kyc, holder)).toBe(true));

  it.each([
    ['Jane Doe', 'John Smith'],
    ['Jane Doe', 'Jane Smith'],
    ['Jane Doe', 'Mary Doe'],
    ['Jane Doe', 'K Doe'],
    ['Jane Doe', ''],
    ['', 'Jane Doe'],
    ['Jane Doe', '...'],
  ])('%s is not %s', (kyc, holder) => expect(namesMatch(kyc, holder)).toBe(false));
});

describe('normaliseName', () => {
  it('keeps letters only, lower case, without accents, titles or suffixes', () => {
    expect(normaliseName('  Dr. José-María  O’Neil Jr ')).toBe('jose maria o neil');
  });
});
