import { SaxesParser, type SaxesTagPlain } from 'saxes';

/**
 * A reader of OFAC's SDN list in its advanced XML format (`SDN_ADVANCED.XML`, the "Sanctions" schema),
 * keeping what screening needs: the bitcoin addresses and the list's date of issue.
 *
 * In that format a digital currency address is a `Feature` of a party's `Profile`, whose
 * `FeatureTypeID` names a `FeatureType` of `ReferenceValueSets/FeatureTypeValues` ("Digital Currency
 * Address - XBT" for bitcoin), with the address as the text of `FeatureVersion/VersionDetail`:
 *
 *   <Sanctions>
 *     <DateOfIssue><Year>2026</Year><Month>11</Month><Day>20</Day></DateOfIssue>
 *     <ReferenceValueSets><FeatureTypeValues>
 *       <FeatureType ID="344" FeatureTypeGroupID="1">Digital Currency Address - XBT</FeatureType>
 *     </FeatureTypeValues></ReferenceValueSets>
 *     <DistinctParties><DistinctParty FixedRef="1"><Profile ID="1" PartySubTypeID="3">
 *       <Feature ID="9" FeatureTypeID="344"><FeatureVersion ID="9" ReliabilityID="1">
 *         <VersionDetail DetailTypeID="1432">bc1q…</VersionDetail>
 *       </FeatureVersion></Feature>
 *     </Profile></DistinctParty></DistinctParties>
 *   </Sanctions>
 *
 * The file is about a hundred megabytes, so it is read as a stream of text chunks, never as a tree.
 */

/** The feature type of bitcoin addresses (OFAC writes bitcoin as XBT). */
export const BITCOIN_ADDRESS_FEATURE = 'Digital Currency Address - XBT';

export interface SanctionsList {
  /** The list's date of issue, YYYY-MM-DD: the version it is known by. */
  version: string;
  /** Every listed bitcoin address, as written in the list, without repeats. */
  bitcoinAddresses: string[];
}

/** The list could not be read, or is not a usable SDN advanced list (malformed, truncated, empty). */
export class SanctionsListError extends Error {
  override name = 'SanctionsListError';
}

/** A bitcoin address as listed: letters and digits only, of a believable length. */
const ADDRESS_TEXT = /^[A-Za-z0-9]{14,90}$/;

/** Local name of a possibly prefixed element name (`sdn:Feature` → `Feature`). */
const local = (name: string): string => name.slice(name.indexOf(':') + 1);

/**
 * Parses an SDN advanced XML list given as text chunks. Throws `SanctionsListError` when the XML is
 * malformed or truncated, is not a `Sanctions` document, has no date of issue, no bitcoin feature type
 * or no bitcoin address at all (the real list has hundreds: none means something went wrong).
 */
export async function parseSdnAdvancedXml(
  chunks: AsyncIterable<string> | Iterable<string> | string,
): Promise<SanctionsList> {
  const parser = new SaxesParser({ xmlns: false, position: false });
  /** The open elements, by local name, root first. */
  const path: string[] = [];
  let rootName: string | null = null;
  const dateParts: Partial<Record<'Year' | 'Month' | 'Day', string>> = {};
  /** FeatureType ID → its name, from the reference values. */
  const featureTypes = new Map<string, string>();
  /** (feature type id, text) of every VersionDetail inside a Feature. */
  const featureValues: { typeId: string; text: string }[] = [];
  let featureTypeId: string | null = null;
  let text = '';
  let openFeatureTypeId: string | null = null;
  let failure: Error | null = null;

  parser.on('error', (error) => {
    failure ??= error;
  });
  parser.on('opentag', (tag: SaxesTagPlain) => {
    const name = local(tag.name);
    if (rootName === null) rootName = name;
    path.push(name);
    text = '';
    if (name === 'FeatureType' && path.at(-2) === 'FeatureTypeValues') {
      const id = tag.attributes.ID;
      openFeatureTypeId = typeof id === 'string' ? id : null;
    } else if (name === 'Feature') {
      const id = tag.attributes.FeatureTypeID;
      featureTypeId = typeof id === 'string' ? id : null;
    }
  });
  parser.on('text', (chunk) => {
    text += chunk;
  });
  parser.on('cdata', (chunk) => {
    text += chunk;
  });
  parser.on('closetag', (tag) => {
    const name = local(tag.name);
    const parent = path.at(-2);
    if (
      parent === 'DateOfIssue' &&
      path.length === 3 &&
      (name === 'Year' || name === 'Month' || name === 'Day')
    ) {
      dateParts[name] = text.trim();
    } else if (name === 'FeatureType' && openFeatureTypeId !== null) {
      featureTypes.set(openFeatureTypeId, text.trim());
      openFeatureTypeId = null;
    } else if (name === 'VersionDetail' && featureTypeId !== null && path.includes('Feature')) {
      featureValues.push({ typeId: featureTypeId, text: text.trim() });
    } else if (name === 'Feature') {
      featureTypeId = null;
    }
    path.pop();
    text = '';
  });

  const feed = (chunk: string) => {
    if (failure) return;
    parser.write(chunk);
  };
  try {
    if (typeof chunks === 'string') feed(chunks);
    else for await (const chunk of chunks) feed(chunk);
    if (!failure) parser.close();
  } catch (error) {
    failure ??= error instanceof Error ? error : new Error(String(error));
  }
  if (failure) throw new SanctionsListError(`The sanctions list is not well-formed XML: ${failure.message}`);
  if (rootName !== 'Sanctions') {
    throw new SanctionsListError(
      `The sanctions list is not an SDN advanced XML file (its root element is ${rootName ?? 'missing'}, not Sanctions).`,
    );
  }

  const version = dateOfIssue(dateParts);
  const bitcoinTypes = new Set(
    [...featureTypes].filter(([, name]) => name === BITCOIN_ADDRESS_FEATURE).map(([id]) => id),
  );
  if (bitcoinTypes.size === 0) {
    throw new SanctionsListError(`The sanctions list has no "${BITCOIN_ADDRESS_FEATURE}" feature type.`);
  }
  const addresses = new Set<string>();
  for (const value of featureValues) {
    if (!bitcoinTypes.has(value.typeId)) continue;
    if (!ADDRESS_TEXT.test(value.text)) {
      throw new SanctionsListError(
        `The sanctions list has a bitcoin address that is not one: "${value.text.slice(0, 100)}".`,
      );
    }
    addresses.add(value.text);
  }
  if (addresses.size === 0) {
    throw new SanctionsListError(
      'The sanctions list names no bitcoin address; a real SDN list names hundreds.',
    );
  }
  return { version, bitcoinAddresses: [...addresses] };
}

/** `DateOfIssue`'s Year, Month and Day as YYYY-MM-DD, checked to be a real date. */
function dateOfIssue(parts: Partial<Record<'Year' | 'Month' | 'Day', string>>): string {
  const { Year: year, Month: month, Day: day } = parts;
  if (
    !year ||
    !month ||
    !day ||
    !/^\d{4}$/.test(year) ||
    !/^\d{1,2}$/.test(month) ||
    !/^\d{1,2}$/.test(day)
  ) {
    throw new SanctionsListError('The sanctions list has no valid DateOfIssue (Year, Month, Day).');
  }
  const iso = `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
  const date = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== iso) {
    throw new SanctionsListError(`The sanctions list's DateOfIssue ${iso} is not a real date.`);
  }
  return iso;
}
