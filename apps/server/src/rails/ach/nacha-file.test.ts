import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import nacha from '@midlandsbank/node-nacha';
import nach from 'nach2';
import { readNachaFile, writtenByNach2 } from '../../test/nacha-check';
import {
  isAbaRoutingNumber,
  NACHA_RECORD_LENGTH,
  NachaFormatError,
  writeNachaFile,
  type NachaBatchInput,
  type NachaFileInput,
} from './nacha-file';

const vector = (name: string) => readFileSync(new URL(`./vectors/${name}`, import.meta.url), 'utf8');

/** Two payouts of the same day, as the ACH file of a business day holds them. */
const payoutsFile = (entries: NachaBatchInput['entries']): NachaFileInput => ({
  immediateDestination: '021000021',
  immediateDestinationName: 'JPMORGAN CHASE',
  immediateOrigin: '1234567890',
  immediateOriginName: 'OFFZERO INC',
  creationDate: '2026-11-27',
  creationTime: '16:05',
  fileIdModifier: 'A',
  referenceCode: 'PAYOUTS',
  batches: [
    {
      companyName: 'OFFZERO',
      companyId: '1234567890',
      secCode: 'PPD',
      entryDescription: 'BTC SALE',
      descriptiveDate: 'NOV 30',
      effectiveEntryDate: '2026-11-30',
      originatingDfi: '021000021',
      entries,
    },
  ],
});

const twoPayouts = payoutsFile([
  {
    transactionCode: '22',
    routingNumber: '011000015',
    accountNumber: '000123456789',
    amountCents: 123_456n,
    individualId: '7F3A9C2E11D04B5',
    individualName: 'ALICE EXAMPLE',
  },
  {
    transactionCode: '32',
    routingNumber: '121000358',
    accountNumber: '55501',
    amountCents: 9_999_999_99n,
    individualId: 'A1B2C3D4E5F6A7B',
    individualName: 'BARTHOLOMEW LONGNAME-SMITHERS III',
  },
]);

describe('NACHA file writer', () => {
  it('writes the moov-io sample PPD file byte for byte from its fields', () => {
    const written = writeNachaFile({
      immediateDestination: '231380104',
      immediateDestinationName: 'Federal Reserve Bank',
      immediateOrigin: '0121042882',
      immediateOriginName: 'My Bank Name',
      creationDate: '2019-06-24',
      creationTime: '00:00',
      fileIdModifier: 'A',
      batches: [
        {
          companyName: 'Name on Account',
          companyId: '121042882',
          secCode: 'PPD',
          entryDescription: 'REG.SALARY',
          effectiveEntryDate: '2019-06-25',
          originatingDfi: '12104288',
          entries: [
            {
              transactionCode: '27',
              routingNumber: '231380104',
              accountNumber: '12345678',
              amountCents: 100_000_000n,
              individualId: '',
              individualName: 'Receiver Account Name',
            },
          ],
        },
      ],
    });
    expect(written.text).toBe(vector('ppd-debit.ach') + '\n');
    expect(written.traceNumbers).toEqual([['121042880000001']]);
  });

  it('writes what nach2 writes from the same payouts: records, controls, entry hash, totals and blocks', async () => {
    const written = writeNachaFile(twoPayouts);
    const lines = written.text.split('\n').slice(0, -1);
    expect(lines).toEqual(await writtenByNach2(twoPayouts));
    // Read back, the fields are the ones given, and nach2 writes the same file from them.
    const read = readNachaFile(written.text);
    expect(read.batches[0]!.entries.map((entry) => entry.amountCents)).toEqual([123_456n, 9_999_999_99n]);
    expect(await writtenByNach2(read)).toEqual(lines);
    expect(lines).toHaveLength(10);
    for (const line of lines) expect(line).toHaveLength(NACHA_RECORD_LENGTH);
    expect(lines.map((line) => line[0]).join('')).toBe('1566899999');
  });

  it('reads back: each entry, the batch control and the file control carry the right figures', () => {
    const written = writeNachaFile(twoPayouts);
    const [, batchHeader, first, second, batchControl, fileControl] = written.text.split('\n');
    expect(batchHeader!.slice(1, 4)).toBe('220');
    expect(batchHeader!.slice(50, 53)).toBe('PPD');
    expect(batchHeader!.slice(69, 75)).toBe('261130');
    expect(first!.slice(1, 3)).toBe('22');
    expect(first!.slice(3, 12)).toBe('011000015');
    expect(first!.slice(12, 29)).toBe('000123456789     ');
    expect(first!.slice(29, 39)).toBe('0000123456');
    expect(first!.slice(54, 76)).toBe('ALICE EXAMPLE         ');
    expect(second!.slice(1, 3)).toBe('32');
    expect(second!.slice(54, 76)).toBe('BARTHOLOMEW LONGNAME-S');
    expect(second!.slice(79)).toBe('021000020000002');
    // Entry hash: 01100001 + 12100035 = 13200036.
    expect(batchControl!.slice(10, 20)).toBe('0013200036');
    expect(batchControl!.slice(32, 44)).toBe('001000123455');
    expect(fileControl!.slice(1, 7)).toBe('000001');
    expect(fileControl!.slice(7, 13)).toBe('000001');
    expect(fileControl!.slice(13, 21)).toBe('00000002');
    expect(fileControl!.slice(21, 31)).toBe('0013200036');
    expect(fileControl!.slice(43, 55)).toBe('001000123455');
    expect(written).toMatchObject({ entryCount: 2, totalCreditCents: 1_000_123_455n, blockCount: 1 });
    for (const trace of written.traceNumbers.flat()) {
      expect(nach.Validate.validateRoutingNumber(trace.slice(0, 8) + '1')).toBe(true);
    }
  });

  it('keeps only the last ten digits of a large entry hash and blocks eleven records into two blocks', () => {
    const entries = Array.from({ length: 120 }, (_, index) => ({
      transactionCode: '22' as const,
      routingNumber: '991000012',
      accountNumber: `ACCT${index}`,
      amountCents: 100n + BigInt(index),
      individualId: `ID${index}`,
      individualName: `RECEIVER ${index}`,
    }));
    const written = writeNachaFile(payoutsFile(entries));
    // 120 × 99100001 = 11892000120: eleven digits, the first one dropped.
    expect(written.entryHash).toBe('1892000120');
    const lines = written.text.split('\n').slice(0, -1);
    expect(lines).toHaveLength(130);
    expect(written.blockCount).toBe(13);
    const small = writeNachaFile(payoutsFile(entries.slice(0, 7)));
    expect(small.text.split('\n').slice(0, -1)).toHaveLength(20);
    expect(small.blockCount).toBe(2);
  });

  it('writes an empty file as a header, a file control and the padding', () => {
    const written = writeNachaFile({ ...twoPayouts, batches: [] });
    const lines = written.text.split('\n').slice(0, -1);
    expect(lines).toHaveLength(10);
    expect(lines[1]).toBe('9000000000001000000000000000000000000000000000000000000' + ' '.repeat(39));
    expect(lines.slice(2).every((line) => line === '9'.repeat(94))).toBe(true);
  });

  it('refuses what the format cannot carry instead of writing a wrong file', () => {
    const one = (entry: Partial<NachaBatchInput['entries'][number]>) =>
      payoutsFile([{ ...twoPayouts.batches[0]!.entries[0]!, ...entry }]);
    expect(() => writeNachaFile(one({ routingNumber: '011000016' }))).toThrow(NachaFormatError);
    expect(() => writeNachaFile(one({ accountNumber: '1'.repeat(18) }))).toThrow(NachaFormatError);
    expect(() => writeNachaFile(one({ accountNumber: '  ' }))).toThrow(NachaFormatError);
    expect(() => writeNachaFile(one({ amountCents: 10_000_000_000n }))).toThrow(NachaFormatError);
    expect(() => writeNachaFile(one({ amountCents: 0n }))).toThrow(NachaFormatError);
    expect(() => writeNachaFile(one({ individualName: 'ZOË' }))).toThrow(NachaFormatError);
    expect(() => writeNachaFile({ ...twoPayouts, fileIdModifier: 'a' })).toThrow(NachaFormatError);
  });

  it('checks ABA routing numbers by their check digit', () => {
    expect(isAbaRoutingNumber('021000021')).toBe(true);
    expect(isAbaRoutingNumber('011000015')).toBe(true);
    expect(isAbaRoutingNumber('011000016')).toBe(false);
    expect(isAbaRoutingNumber('02100002')).toBe(false);
    expect(isAbaRoutingNumber('02100002a')).toBe(false);
  });
});

describe('NACHA file read back by an independent parser (@midlandsbank/node-nacha)', () => {
  it('reads each entry, the batch and file controls, entry hash and totals as written', () => {
    const written = writeNachaFile(twoPayouts);
    const { file, batches } = nacha.from(written.text).data;
    expect(file).toMatchObject({
      destination: ' 021000021',
      origin: '1234567890',
      creationDate: '261127',
      destinationName: 'JPMORGAN CHASE',
      originName: 'OFFZERO INC',
      recordSize: '094',
      blockingFactor: '10',
    });
    expect(batches).toHaveLength(1);
    const [batch] = batches;
    expect(batch).toMatchObject({
      serviceClassCode: 220,
      companyName: 'OFFZERO',
      companyId: '1234567890',
      entryClassCode: 'PPD',
      description: 'BTC SALE',
      effectiveDate: '261130',
      originatingDFIIdentification: '02100002',
    });
    // The parser reads numeric fields as numbers: the routing number's 8 digits lose their leading zeros.
    const entries = batch!.entries.map((entry) => ({
      transactionCode: entry.transactionCode,
      routingNumber: `${String(entry.receivingDFIIdentification).padStart(8, '0')}${entry.checkDigit}`,
      accountNumber: entry.dfiAccount,
      amountCents: BigInt(entry.amount),
      individualId: entry.identificationNumber,
      individualName: entry.receivingCompanyName,
      traceNumber: String(entry.traceNumber).padStart(15, '0'),
    }));
    expect(entries).toEqual([
      {
        transactionCode: '22',
        routingNumber: '011000015',
        accountNumber: '000123456789',
        amountCents: 123_456n,
        individualId: '7F3A9C2E11D04B5',
        individualName: 'ALICE EXAMPLE',
        traceNumber: '021000020000001',
      },
      {
        transactionCode: '32',
        routingNumber: '121000358',
        accountNumber: '55501',
        amountCents: 9_999_999_99n,
        individualId: 'A1B2C3D4E5F6A7B',
        // 22 characters: the field's width.
        individualName: 'BARTHOLOMEW LONGNAME-S',
        traceNumber: '021000020000002',
      },
    ]);
    expect(written.traceNumbers).toEqual([entries.map((entry) => entry.traceNumber)]);

    // The controls, recomputed from what the parser read, agree with the ones written.
    const entryHash = batch!.entries.reduce((sum, entry) => sum + entry.receivingDFIIdentification, 0) % 1e10;
    const totalCredit = batch!.entries.reduce((sum, entry) => sum + entry.amount, 0);
    const control = { entryAndAddendaCount: 2, entryHash, totalDebit: 0, totalCredit };
    expect(entryHash).toBe(Number(written.entryHash));
    expect(totalCredit).toBe(Number(written.totalCreditCents));
    expect(batch!.footer).toMatchObject({ ...control, serviceClassCode: 220, companyId: '1234567890' });
    expect(file.footer).toMatchObject({ ...control, batchCount: 1, blockCount: written.blockCount });
  });
});
