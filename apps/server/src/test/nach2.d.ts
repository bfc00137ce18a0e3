/**
 * The parts of nach2 (an independent NACHA writer, used only by tests to check ours) that the tests
 * call. The package ships no types.
 */
declare module 'nach2' {
  export class File {
    constructor(options: Record<string, unknown>);
    addBatch(batch: Batch): void;
    generateFile(callback: (text: string) => void): void;
  }
  export class Batch {
    constructor(options: Record<string, unknown>);
    addEntry(entry: Entry): void;
  }
  export class Entry {
    constructor(options: Record<string, unknown>);
  }
  export const Validate: {
    validateRoutingNumber(routing: string): true;
  };
}
