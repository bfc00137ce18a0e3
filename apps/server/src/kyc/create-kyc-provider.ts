import type { AppConfig } from '../config/config';
import type { Database } from '../db/database';
import type { KycProvider } from './kyc-provider';
import { createLocalKycProvider } from './local-kyc-provider';
import { createSumsubKycProvider } from './sumsub-kyc-provider';

/** Sumsub whenever it is configured (always in production); the local form otherwise. */
export function createKycProvider(config: AppConfig, db: Database): KycProvider {
  return config.sumsub ? createSumsubKycProvider(config.sumsub) : createLocalKycProvider(db);
}
