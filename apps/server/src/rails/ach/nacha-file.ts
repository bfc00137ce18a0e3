/**
 * A NACHA file writer (docs/design.md, "ACH file"): the fixed-width format banks take ACH entries in.
 * Pure: the same input gives the same bytes. Every record is 94 characters; a file is a file header
 * (1), per batch a batch header (5), its entry details (6) and a batch control (8), then a file control
 * (9), padded with lines of `9` to a multiple of ten records (a "block"). Amounts are integer cents.
 * The layout follows the NACHA Operating Rules' record formats as banks publish them.
 */

export const NACHA_RECORD_LENGTH = 94;
const BLOCKING_FACTOR = 10;

/** Checking and savings credits (22, 32) and debits (27, 37): the four a PPD file uses. */
export const NACHA_CREDIT_CODES = ['22', '32'] as const;
export const NACHA_DEBIT_CODES = ['27', '37'] as const;
export type NachaTransactionCode = (typeof NACHA_CREDIT_CODES)[number] | (typeof NACHA_DEBIT_CODES)[number];

export interface NachaEntryInput {
  transactionCode: NachaTransactionCode;
  /** The receiver's bank: a nine-digit ABA routing number (its ninth digit is the check digit). */
  routingNumber: string;
  accountNumber: string;
  amountCents: bigint;
  /** Up to 15 characters the originator identifies the receiver or payment by. */
  individualId: string;
  /** The receiver's name; cut to 22 characters. */
  individualName: string;
  discretionaryData?: string;
}

export interface NachaBatchInput {
  /** The originator's name on the receiver's statement (16 characters). */
  companyName: string;
  companyDiscretionaryData?: string;
  /** The originator's identification (10 characters, usually "1" and its tax id). */
  companyId: string;
  secCode: 'PPD' | 'CCD' | 'WEB';
  /** What the receiver's statement says the entries are (10 characters). */
  entryDescription: string;
  descriptiveDate?: string;
  /** When the entries settle: YYYY-MM-DD, a banking day. */
  effectiveEntryDate: string;
  /** The originating bank's routing number (nine digits) or its first eight. */
  originatingDfi: string;
  entries: NachaEntryInput[];
}

export interface NachaFileInput {
  /** The bank the file goes to: its nine-digit routing number. */
  immediateDestination: string;
  immediateDestinationName: string;
  /** Who sends the file (10 characters, as the bank assigned: a routing number or the company id). */
  immediateOrigin: string;
  immediateOriginName: string;
  /** When the file was made, in the originator's time: YYYY-MM-DD and HH:MM. */
  creationDate: string;
  creationTime: string;
  /** A–Z or 0–9: tells apart files sent the same day. */
  fileIdModifier: string;
  referenceCode?: string;
  batches: NachaBatchInput[];
}

export interface NachaFile {
  /** The file: records joined by line feeds, the last one ending in one too. */
  text: string;
  /** Each entry's trace number, batch by batch, in the order given. */
  traceNumbers: string[][];
  entryCount: number;
  totalCreditCents: bigint;
  totalDebitCents: bigint;
  entryHash: string;
  blockCount: number;
}

/** A value the format cannot carry: a bug or bad data upstream, never a customer's doing. */
export class NachaFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NachaFormatError';
  }
}

/** The ABA checksum: 3·d1 + 7·d2 + d3 + 3·d4 + 7·d5 + d6 + 3·d7 + 7·d8 + d9 is a multiple of 10. */
export function isAbaRoutingNumber(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  const weights = [3, 7, 1, 3, 7, 1, 3, 7, 1];
  const sum = [...value].reduce((total, digit, index) => total + Number(digit) * weights[index]!, 0);
  return sum % 10 === 0;
}

/** Writes the file. Throws NachaFormatError when a value cannot be written as the format requires. */
export function writeNachaFile(input: NachaFileInput): NachaFile {
  const records: string[] = [fileHeader(input)];
  const traceNumbers: string[][] = [];
  const totals = { entries: 0, hash: 0n, credit: 0n, debit: 0n };
  let sequence = 0;
  input.batches.forEach((batch, index) => {
    const odfi = originatingDfi(batch.originatingDfi);
    const traces = batch.entries.map(() => odfi + numeric('trace sequence', BigInt(++sequence), 7));
    const control = batchTotals(batch.entries);
    records.push(batchHeader(batch, odfi, index + 1, control));
    batch.entries.forEach((entry, position) => records.push(entryDetail(entry, traces[position]!)));
    records.push(batchControl(batch, odfi, index + 1, control));
    traceNumbers.push(traces);
    totals.entries += batch.entries.length;
    totals.hash += control.hash;
    totals.credit += control.credit;
    totals.debit += control.debit;
  });
  const blockCount = Math.ceil((records.length + 1) / BLOCKING_FACTOR);
  const entryHash = lastDigits(totals.hash, 10);
  records.push(
    record(
      '9',
      numeric('batch count', BigInt(input.batches.length), 6),
      numeric('block count', BigInt(blockCount), 6),
      numeric('entry count', BigInt(totals.entries), 8),
      entryHash,
      numeric('total debit', totals.debit, 12),
      numeric('total credit', totals.credit, 12),
      ' '.repeat(39),
    ),
  );
  while (records.length % BLOCKING_FACTOR !== 0) records.push('9'.repeat(NACHA_RECORD_LENGTH));
  return {
    text: records.join('\n') + '\n',
    traceNumbers,
    entryCount: totals.entries,
    totalCreditCents: totals.credit,
    totalDebitCents: totals.debit,
    entryHash,
    blockCount,
  };
}

function fileHeader(input: NachaFileInput): string {
  routing('immediate destination', input.immediateDestination);
  if (!/^[A-Z0-9]$/.test(input.fileIdModifier)) {
    throw new NachaFormatError('The file id modifier is one character, A to Z or 0 to 9.');
  }
  return record(
    '1',
    '01',
    ' ' + input.immediateDestination,
    alpha('immediate origin', input.immediateOrigin, 10, { right: true, exact: true }),
    yymmdd(input.creationDate),
    hhmm(input.creationTime),
    input.fileIdModifier,
    '094',
    '10',
    '1',
    alpha('immediate destination name', input.immediateDestinationName, 23),
    alpha('immediate origin name', input.immediateOriginName, 23),
    alpha('reference code', input.referenceCode ?? '', 8),
  );
}

interface BatchTotals {
  hash: bigint;
  credit: bigint;
  debit: bigint;
  serviceClass: '200' | '220' | '225';
}

function batchTotals(entries: NachaEntryInput[]): BatchTotals {
  let hash = 0n;
  let credit = 0n;
  let debit = 0n;
  for (const entry of entries) {
    hash += BigInt(routing('receiving bank', entry.routingNumber).slice(0, 8));
    if (isCredit(entry.transactionCode)) credit += entry.amountCents;
    else debit += entry.amountCents;
  }
  // 220: credits only, 225: debits only, 200: both (an empty batch counts as credits).
  const serviceClass = debit === 0n ? '220' : credit === 0n ? '225' : '200';
  return { hash, credit, debit, serviceClass };
}

function batchHeader(batch: NachaBatchInput, odfi: string, number: number, totals: BatchTotals): string {
  return record(
    '5',
    totals.serviceClass,
    alpha('company name', batch.companyName, 16),
    alpha('company discretionary data', batch.companyDiscretionaryData ?? '', 20),
    alpha('company id', batch.companyId, 10, { exact: true }),
    batch.secCode,
    alpha('entry description', batch.entryDescription, 10, { exact: true }),
    alpha('descriptive date', batch.descriptiveDate ?? '', 6, { exact: true }),
    yymmdd(batch.effectiveEntryDate),
    '   ', // settlement date: the ACH operator fills it in
    '1',
    odfi,
    numeric('batch number', BigInt(number), 7),
  );
}

function entryDetail(entry: NachaEntryInput, traceNumber: string): string {
  if (![...NACHA_CREDIT_CODES, ...NACHA_DEBIT_CODES].includes(entry.transactionCode)) {
    throw new NachaFormatError(
      `Transaction code ${String(entry.transactionCode)} is not one this file writes.`,
    );
  }
  if (entry.amountCents <= 0n) throw new NachaFormatError('An entry moves a positive amount.');
  return record(
    '6',
    entry.transactionCode,
    routing('receiving bank', entry.routingNumber),
    alpha('account number', entry.accountNumber, 17, { exact: true, required: true }),
    numeric('amount', entry.amountCents, 10),
    alpha('individual id', entry.individualId, 15, { exact: true }),
    alpha('individual name', entry.individualName, 22),
    alpha('discretionary data', entry.discretionaryData ?? '', 2, { exact: true }),
    '0',
    traceNumber,
  );
}

function batchControl(batch: NachaBatchInput, odfi: string, number: number, totals: BatchTotals): string {
  return record(
    '8',
    totals.serviceClass,
    numeric('entry count', BigInt(batch.entries.length), 6),
    lastDigits(totals.hash, 10),
    numeric('total debit', totals.debit, 12),
    numeric('total credit', totals.credit, 12),
    alpha('company id', batch.companyId, 10, { exact: true }),
    ' '.repeat(19), // message authentication code
    ' '.repeat(6),
    odfi,
    numeric('batch number', BigInt(number), 7),
  );
}

function isCredit(code: NachaTransactionCode): boolean {
  return (NACHA_CREDIT_CODES as readonly string[]).includes(code);
}

function originatingDfi(value: string): string {
  if (/^\d{8}$/.test(value)) return value;
  return routing('originating bank', value).slice(0, 8);
}

function routing(what: string, value: string): string {
  if (!isAbaRoutingNumber(value)) {
    throw new NachaFormatError(
      `The ${what}'s routing number ${value} is not nine digits with a valid check digit.`,
    );
  }
  return value;
}

function record(...fields: string[]): string {
  const line = fields.join('');
  if (line.length !== NACHA_RECORD_LENGTH) {
    throw new Error(`a NACHA record came out ${line.length} characters long: ${line}`);
  }
  return line;
}

/** Zero-filled on the left; too large a number is refused, never cut. */
function numeric(what: string, value: bigint, width: number): string {
  const digits = value.toString();
  if (value < 0n || digits.length > width) {
    throw new NachaFormatError(`The ${what} ${digits} does not fit in ${width} digits.`);
  }
  return digits.padStart(width, '0');
}

/** The rightmost digits of a sum (the entry hash drops what overflows). */
function lastDigits(value: bigint, width: number): string {
  return value.toString().padStart(width, '0').slice(-width);
}

/** Printable ASCII, space-filled on the right (or left); cut to the width unless it must fit exactly. */
function alpha(
  what: string,
  value: string,
  width: number,
  options: { exact?: boolean; right?: boolean; required?: boolean } = {},
): string {
  if (!/^[\x20-\x7E]*$/.test(value)) {
    throw new NachaFormatError(`The ${what} "${value}" has characters a NACHA file cannot carry.`);
  }
  if (options.required && value.trim() === '') throw new NachaFormatError(`The ${what} is missing.`);
  if (value.length > width && options.exact) {
    throw new NachaFormatError(`The ${what} "${value}" is longer than ${width} characters.`);
  }
  const cut = value.slice(0, width);
  return options.right ? cut.padStart(width, ' ') : cut.padEnd(width, ' ');
}

function yymmdd(date: string): string {
  const match = /^\d\d(\d\d)-(\d\d)-(\d\d)$/.exec(date);
  if (!match) throw new NachaFormatError(`The date ${date} is not YYYY-MM-DD.`);
  return `${match[1]}${match[2]}${match[3]}`;
}

function hhmm(time: string): string {
  const match = /^(\d\d):(\d\d)$/.exec(time);
  if (!match) throw new NachaFormatError(`The time ${time} is not HH:MM.`);
  return `${match[1]}${match[2]}`;
}
