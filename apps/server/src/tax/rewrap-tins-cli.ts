import { ConfigError, loadConfig } from '../config/config';
import { DatabaseUnavailableError, openDatabase } from '../db/database';
import { createTaxService } from './tax.service';
import { createTinCipher } from './tin-cipher';

/**
 * `npm run tax:rewrap`: the second half of a data encryption key rotation (docs/runbook.md). With the new key in
 * DATA_ENCRYPTION_KEY and the old one in DATA_ENCRYPTION_PREVIOUS_KEYS, re-encrypts every stored TIN
 * under the new key; afterwards the old key can be removed. Safe to run again (and beside running
 * servers: each row is replaced only if nobody changed it meanwhile). Prints counts, never a TIN.
 */
async function rewrap(): Promise<void> {
  // eslint-disable-next-line no-restricted-properties -- this command's one read of the environment
  const config = loadConfig(process.env);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    migrate: false,
    poolMax: config.databasePoolMax,
  });
  try {
    const tax = createTaxService({
      db: database.db,
      cipher: createTinCipher(config.dataEncryption),
      currentKey: config.dataEncryption.current,
      issuer: {
        companyName: config.companyName,
        postalAddress: config.postalAddress,
        supportEmail: config.supportEmail,
      },
    });
    const count = await tax.rewrapTins();
    console.log(`Re-encrypted ${count} taxpayer number(s) under the current DATA_ENCRYPTION_KEY.`);
  } finally {
    await database.close();
  }
}

rewrap().then(
  () => process.exit(0),
  (error: unknown) => {
    if (error instanceof ConfigError || error instanceof DatabaseUnavailableError)
      console.error(error.message);
    else console.error('Re-encryption failed:', error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
