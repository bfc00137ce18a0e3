import nach from 'nach2';
import type { NachaFileInput } from '../rails/ach/nacha-file';

/**
 * Checks a NACHA file against nach2, an independent implementation: the fields of the file's header,
 * batch headers and entries are read back, nach2 writes a file from them (computing its own batch and
 * file controls, entry hash, totals and blocking), and the tests expect the same records.
 */

/** The fields of a PPD file of credits, read from their positions. */
export function readNachaFile(text: string): NachaFileInput {
  const lines = text.split(/\r?\n/).filter((line) => line !== '');
  const header = lines[0]!;
  const input: NachaFileInput = {
    immediateDestination: header.slice(4, 13),
    immediateOrigin: header.slice(13, 23).trim(),
    creationDate: `20${header.slice(23, 25)}-${header.slice(25, 27)}-${header.slice(27, 29)}`,
    creationTime: `${header.slice(29, 31)}:${header.slice(31, 33)}`,
    fileIdModifier: header.slice(33, 34),
    immediateDestinationName: header.slice(40, 63).trimEnd(),
    immediateOriginName: header.slice(63, 86).trimEnd(),
    referenceCode: header.slice(86, 94).trimEnd(),
    batches: [],
  };
  for (const line of lines.slice(1)) {
    if (line.startsWith('5')) {
      input.batches.push({
        companyName: line.slice(4, 20).trimEnd(),
        companyId: line.slice(40, 50),
        secCode: line.slice(50, 53) as 'PPD',
        entryDescription: line.slice(53, 63).trimEnd(),
        descriptiveDate: line.slice(63, 69),
        effectiveEntryDate: `20${line.slice(69, 71)}-${line.slice(71, 73)}-${line.slice(73, 75)}`,
        originatingDfi: line.slice(79, 87),
        entries: [],
      });
    } else if (line.startsWith('6')) {
      input.batches.at(-1)!.entries.push({
        transactionCode: line.slice(1, 3) as '22',
        routingNumber: line.slice(3, 12),
        accountNumber: line.slice(12, 29).trimEnd(),
        amountCents: BigInt(line.slice(29, 39)),
        individualId: line.slice(39, 54).trimEnd(),
        individualName: line.slice(54, 76).trimEnd(),
        discretionaryData: line.slice(76, 78),
      });
    }
  }
  return input;
}

/** The records nach2 writes from the same fields (credits only, one service class 220 per batch). */
export async function writtenByNach2(input: NachaFileInput): Promise<string[]> {
  const file = new nach.File({
    immediateDestination: input.immediateDestination,
    immediateOrigin: input.immediateOrigin,
    immediateDestinationName: input.immediateDestinationName,
    immediateOriginName: input.immediateOriginName,
    fileCreationDate: input.creationDate.slice(2).replaceAll('-', ''),
    fileCreationTime: input.creationTime.replace(':', ''),
    fileIdModifier: input.fileIdModifier,
    referenceCode: input.referenceCode,
    batchSequenceNumber: 1,
  });
  let sequence = 0;
  for (const batch of input.batches) {
    const [year, month, day] = batch.effectiveEntryDate.split('-').map(Number);
    const written = new nach.Batch({
      serviceClassCode: '220',
      companyName: batch.companyName,
      standardEntryClassCode: batch.secCode,
      companyIdentification: batch.companyId,
      companyEntryDescription: batch.entryDescription,
      // nach2 refuses an empty field; blanks are what an empty one is written as.
      companyDescriptiveDate: batch.descriptiveDate || '      ',
      effectiveEntryDate: new Date(year!, month! - 1, day),
      originatingDFI: batch.originatingDfi,
    });
    for (const entry of batch.entries) {
      sequence += 1;
      written.addEntry(
        new nach.Entry({
          receivingDFI: entry.routingNumber,
          DFIAccount: entry.accountNumber,
          // nach2 takes dollars; cents divide exactly into two decimals.
          amount: (Number(entry.amountCents) / 100).toFixed(2),
          idNumber: entry.individualId || ' ',
          individualName: entry.individualName,
          transactionCode: entry.transactionCode,
          discretionaryData: entry.discretionaryData || '  ',
          traceNumber: batch.originatingDfi.slice(0, 8) + String(sequence).padStart(7, '0'),
        }),
      );
    }
    file.addBatch(written);
  }
  const text = await new Promise<string>((resolve) => file.generateFile(resolve));
  return text.split(/\r?\n/);
}
