/**
 * The parts of @midlandsbank/node-nacha (an independent NACHA parser, used only by tests to read back
 * our files) that the tests call. The package ships no types.
 */
declare module '@midlandsbank/node-nacha' {
  export interface ParsedNachaEntry {
    transactionCode: string;
    /** The receiving bank's first 8 routing digits, read as a number (leading zeros dropped). */
    receivingDFIIdentification: number;
    checkDigit: number;
    dfiAccount: string;
    amount: number;
    identificationNumber: string;
    receivingCompanyName: string;
    addendaIndicator: string;
    traceNumber: number;
  }
  export interface ParsedNachaControl {
    entryAndAddendaCount: number;
    entryHash: number;
    totalDebit: number;
    totalCredit: number;
  }
  export interface ParsedNachaBatch {
    serviceClassCode: number;
    companyName: string;
    companyId: string;
    entryClassCode: string;
    description: string;
    effectiveDate: string;
    originatingDFIIdentification: string;
    entries: ParsedNachaEntry[];
    footer: ParsedNachaControl & { serviceClassCode: number; companyId: string };
  }
  export interface ParsedNachaFile {
    file: {
      destination: string;
      origin: string;
      creationDate: string;
      destinationName: string;
      originName: string;
      recordSize: string;
      blockingFactor: string;
      footer: ParsedNachaControl & { batchCount: number; blockCount: number };
    };
    batches: ParsedNachaBatch[];
  }
  const nacha: {
    from(source: string): { data: ParsedNachaFile; to(format: 'ach' | 'json'): string };
  };
  export default nacha;
}
