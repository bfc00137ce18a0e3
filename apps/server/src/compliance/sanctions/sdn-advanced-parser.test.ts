import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { demoSanctionsListFile } from '../../config/server-paths';
import { parseSdnAdvancedXml, SanctionsListError } from './sdn-advanced-parser';

/** An excerpt of OFAC's SDN_ADVANCED.XML, its structure as published (parties shortened). */
const EXCERPT = `<?xml version="1.0" encoding="utf-8"?>
<Sanctions xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/ADVANCED_XML">
  <DateOfIssue><Year>2024</Year><Month>3</Month><Day>7</Day></DateOfIssue>
  <ReferenceValueSets>
    <AreaCodeValues><AreaCode ID="11082" CountryID="11082" Description="Afghanistan">AF</AreaCode></AreaCodeValues>
    <FeatureTypeValues>
      <FeatureType ID="8" FeatureTypeGroupID="1">Birthdate</FeatureType>
      <FeatureType ID="344" FeatureTypeGroupID="1">Digital Currency Address - XBT</FeatureType>
      <FeatureType ID="345" FeatureTypeGroupID="1">Digital Currency Address - ETH</FeatureType>
    </FeatureTypeValues>
  </ReferenceValueSets>
  <DistinctParties>
    <DistinctParty FixedRef="22734">
      <Comment />
      <Profile ID="22734" PartySubTypeID="4">
        <Identity ID="41201" FixedRef="22734" Primary="true" False="false" />
        <Feature ID="82101" FeatureTypeID="344">
          <FeatureVersion ID="77001" ReliabilityID="1">
            <Comment />
            <VersionDetail DetailTypeID="1432">12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h</VersionDetail>
          </FeatureVersion>
          <IdentityReference IdentityID="41201" IdentityFeatureLinkTypeID="1" />
        </Feature>
        <Feature ID="82102" FeatureTypeID="345">
          <FeatureVersion ID="77002" ReliabilityID="1">
            <VersionDetail DetailTypeID="1432">0x098B716B8Aaf21512996dC57EB0615e2383E2f96</VersionDetail>
          </FeatureVersion>
        </Feature>
        <Feature ID="82103" FeatureTypeID="344">
          <FeatureVersion ID="77003" ReliabilityID="1">
            <VersionDetail DetailTypeID="1432">
              bc1qa5wkgaew2dkv56kfvj49j0av5nml45x9ek9hz6
            </VersionDetail>
          </FeatureVersion>
        </Feature>
        <Feature ID="82104" FeatureTypeID="344">
          <FeatureVersion ID="77004" ReliabilityID="1">
            <VersionDetail DetailTypeID="1432">12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h</VersionDetail>
          </FeatureVersion>
        </Feature>
        <Feature ID="82105" FeatureTypeID="8">
          <FeatureVersion ID="77005" ReliabilityID="1">
            <DatePeriod CalendarTypeID="1"><Start><From><Year>1970</Year></From></Start></DatePeriod>
          </FeatureVersion>
        </Feature>
      </Profile>
    </DistinctParty>
  </DistinctParties>
</Sanctions>`;

async function refusal(input: string | Iterable<string>): Promise<string> {
  const error = await parseSdnAdvancedXml(input).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(SanctionsListError);
  return (error as Error).message;
}

describe('parseSdnAdvancedXml', () => {
  it('reads the XBT addresses and the date of issue, once each, ignoring other currencies', async () => {
    expect(await parseSdnAdvancedXml(EXCERPT)).toEqual({
      version: '2024-03-07',
      bitcoinAddresses: ['12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h', 'bc1qa5wkgaew2dkv56kfvj49j0av5nml45x9ek9hz6'],
    });
  });

  it('reads the same from a stream cut anywhere, even inside names and entities', async () => {
    const pieces = EXCERPT.match(/[\s\S]{1,7}/g) ?? [];
    expect(await parseSdnAdvancedXml(pieces)).toEqual(await parseSdnAdvancedXml(EXCERPT));
    async function* slowly() {
      for (const char of EXCERPT) yield char;
    }
    expect((await parseSdnAdvancedXml(slowly())).bitcoinAddresses).toHaveLength(2);
  });

  it('reads namespace-prefixed element names', async () => {
    const prefixed = EXCERPT.replace(/<(\/?)([A-Z][A-Za-z]*)/g, '<$1sdn:$2').replace(
      'xmlns="',
      'xmlns:sdn="',
    );
    expect((await parseSdnAdvancedXml(prefixed)).version).toBe('2024-03-07');
  });

  it('reads the demo list shipped in the repository with the two demo addresses', async () => {
    const demo = await parseSdnAdvancedXml(readFileSync(demoSanctionsListFile, 'utf8'));
    expect(demo.version).toBe('2026-11-20');
    expect(demo.bitcoinAddresses.sort()).toEqual([
      'tb1ql82xt3nt8e4ezsylt63dqfwzax5u8hzetu8t7z',
      'tb1qn22l4fxz609uc3ztl0apnh6hq66efmws4x0vvc',
    ]);
  });

  it('refuses malformed or truncated XML', async () => {
    expect(await refusal(EXCERPT.slice(0, EXCERPT.length / 2))).toContain('not well-formed');
    expect(await refusal(EXCERPT.replace('</Profile>', ''))).toContain('not well-formed');
    expect(await refusal('')).toMatch(/not well-formed|root element/);
    expect(await refusal('<html><body>Service unavailable</body></html>')).toContain('root element is html');
    expect(await refusal('{"sanctions": []}')).toContain('not well-formed');
  });

  it('refuses a list without a valid date of issue', async () => {
    expect(await refusal(EXCERPT.replace(/<DateOfIssue>.*<\/DateOfIssue>/, ''))).toContain('DateOfIssue');
    expect(await refusal(EXCERPT.replace('<Month>3</Month>', '<Month>13</Month>'))).toContain(
      'not a real date',
    );
    expect(
      await refusal(EXCERPT.replace('<Day>7</Day>', '<Day>30</Day>').replace('<Month>3<', '<Month>2<')),
    ).toContain('not a real date');
  });

  it('refuses an empty list: no XBT feature type, or no XBT address', async () => {
    expect(await refusal(EXCERPT.replace('Digital Currency Address - XBT', 'Website'))).toContain(
      'no "Digital Currency Address - XBT" feature type',
    );
    const withoutAddresses = EXCERPT.replace(
      /<DistinctParties>[\s\S]*<\/DistinctParties>/,
      '<DistinctParties />',
    );
    expect(await refusal(withoutAddresses)).toContain('names no bitcoin address');
  });

  it('refuses an XBT entry that is not an address', async () => {
    expect(await refusal(EXCERPT.replace('12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h<', 'see remarks<'))).toContain(
      'not one',
    );
  });
});
