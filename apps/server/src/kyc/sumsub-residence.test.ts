import { describe, expect, it } from 'vitest';
import { residenceStateOf } from './sumsub-kyc-provider';

// Where a Sumsub applicant lives (docs/design.md, "Places and the scam shield"): the state of the first
// US address (country "USA", ISO alpha-3) Sumsub recognised from the documents (`info`), else the one
// provided (`fixedInfo`).
describe("the residence state read from Sumsub's applicant", () => {
  it('reads a USPS code or a state name of a US address', () => {
    expect(residenceStateOf({ info: { addresses: [{ country: 'USA', state: 'NY', town: 'Albany' }] } })).toBe(
      'NY',
    );
    expect(residenceStateOf({ info: { addresses: [{ country: 'USA', state: 'New York' }] } })).toBe('NY');
    expect(
      residenceStateOf({ info: { addresses: [{ country: 'USA', state: 'District of Columbia' }] } }),
    ).toBe('DC');
    expect(residenceStateOf({ info: { addresses: [{ country: 'USA', stateCode: 'PR' }] } })).toBe('PR');
  });

  it('prefers the recognised address to the provided one, and skips addresses outside the US', () => {
    expect(
      residenceStateOf({
        info: {
          addresses: [
            { country: 'CAN', state: 'ON' },
            { country: 'USA', state: 'TX' },
          ],
        },
        fixedInfo: { addresses: [{ country: 'USA', state: 'CA' }] },
      }),
    ).toBe('TX');
    expect(residenceStateOf({ fixedInfo: { addresses: [{ country: 'USA', state: 'CA' }] } })).toBe('CA');
  });

  it('answers null when no address names a US place', () => {
    expect(residenceStateOf({})).toBeNull();
    expect(residenceStateOf({ info: { addresses: 'not a list' } })).toBeNull();
    expect(residenceStateOf({ info: { addresses: [{ country: 'USA', state: 'Atlantis' }] } })).toBeNull();
    expect(residenceStateOf({ info: { addresses: [{ country: 'GBR', state: 'NY' }] } })).toBeNull();
  });
});
