/**
 * The pieces the scale seed's SQL is written with (docs/performance.md, "At scale"). Every value comes
 * from a seeded hash of the row's number (`hashint8extended`, built into PostgreSQL and the embedded
 * database), so the same seed writes the same rows, and the database generates them itself: nothing
 * crosses the wire but the statements.
 */

/** A non-negative pseudo-random bigint for row `row` and stream `stream`, from the seed. */
export function random(seed: number, stream: number, row: string): string {
  return `(hashint8extended((${row})::bigint * 131 + ${stream}, ${seed}) & 9223372036854775807)`;
}

/** A pseudo-random number in [0, 1) for row `row` and stream `stream`. */
export function uniform(seed: number, stream: number, row: string): string {
  return `((${random(seed, stream, row)} % 1000000)::float8 / 1000000)`;
}

/** A pseudo-random integer in [0, n). */
export function below(seed: number, stream: number, row: string, n: number): string {
  return `(${random(seed, stream, row)} % ${n})`;
}

/** One of `values`, picked by `bucket` (an integer in [0, 100)) against cumulative percentages. */
export function pickByPercent(bucket: string, choices: readonly [value: string, percent: number][]): string {
  let cumulative = 0;
  const arms = choices.map(([value, percent], index) => {
    cumulative += percent;
    return index === choices.length - 1 ? `else ${value}` : `when ${bucket} < ${cumulative} then ${value}`;
  });
  return `(case ${arms.join(' ')} end)`;
}

/** One of `values` (SQL literals), picked uniformly. */
export function pickOne(seed: number, stream: number, row: string, values: readonly string[]): string {
  return `(array[${values.map(quote).join(', ')}])[1 + ${below(seed, stream, row, values.length)}]`;
}

/** A stable id for the seed's row `row` of kind `kind` (a uuid made of an md5). */
export function seededId(seed: number, kind: string, row: string): string {
  return `md5('${seed}:${kind}:' || (${row})::text)::uuid`;
}

/** 64 hexadecimal characters (a transaction id or a payment hash) for row `row` of kind `kind`. */
export function seededHex64(seed: number, kind: string, row: string): string {
  return `(md5('${seed}:${kind}:a:' || (${row})::text) || md5('${seed}:${kind}:b:' || (${row})::text))`;
}

/** A testnet-looking bech32 address (42 characters) for row `row` of kind `kind`. */
export function seededAddress(seed: number, kind: string, row: string): string {
  return `('tb1q' || translate(substr(md5('${seed}:${kind}:' || (${row})::text) || md5('${seed}:${kind}:2:' || (${row})::text), 1, 38), 'bio1', 'xyzw'))`;
}

export const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;

export const FIRST_NAMES = [
  'Ava',
  'Ben',
  'Carla',
  'David',
  'Elena',
  'Farid',
  'Grace',
  'Hugo',
  'Ines',
  'James',
  'Kira',
  'Liam',
  'Maya',
  'Noah',
  'Olivia',
  'Pedro',
  'Quinn',
  'Rosa',
  'Sam',
  'Tara',
  'Uma',
  'Victor',
  'Wendy',
  'Yusuf',
];
export const LAST_NAMES = [
  'Adams',
  'Baker',
  'Chen',
  'Diaz',
  'Evans',
  'Fischer',
  'Garcia',
  'Hughes',
  'Ito',
  'Johnson',
  'Kim',
  'Lopez',
  'Martin',
  'Nguyen',
  'Okafor',
  'Patel',
  'Reyes',
  'Smith',
  'Turner',
  'Walker',
  'Young',
];
export const STATES = [
  'CA',
  'TX',
  'FL',
  'NY',
  'PA',
  'IL',
  'OH',
  'GA',
  'NC',
  'MI',
  'NJ',
  'VA',
  'WA',
  'AZ',
  'MA',
  'TN',
  'CO',
  'MD',
  'MN',
  'WI',
  'OR',
  'NV',
  'UT',
  'DC',
];
export const CITIES = ['Springfield', 'Riverside', 'Franklin', 'Greenville', 'Fairview', 'Madison', 'Salem'];
