import { describe, expect, it } from 'vitest';
import { publicAppConfigSchema, type PublicAppConfig } from '@offzero/shared/api/app-config';
import { readAppConfig } from './read-app-config';

const config: PublicAppConfig = {
  mode: 'demo',
  supportEmail: 'support@offzero.com',
  blogUrl: 'https://blog.offzero.com',
  social: { x: 'https://x.com/o', facebook: 'https://facebook.com/o', linkedin: 'https://linkedin.com/o' },
  postalAddress: '1621 Central Ave, Cheyenne, WY 82001, USA',
  googleClientId: null,
  paypalClientId: 'client-id',
  bitcoinNetwork: 'testnet',
  explorerUrl: 'https://mempool.space/testnet',
};

/** The shared schema's verdict, as null or the parsed value, to compare with readAppConfig. */
const bySchema = (value: unknown) => {
  const parsed = publicAppConfigSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
};

describe('readAppConfig', () => {
  const cases: [string, unknown][] = [
    ['a complete config', config],
    ['production with Google sign-in', { ...config, mode: 'production', googleClientId: 'g' }],
    ['extra fields (dropped)', { ...config, extra: 1, social: { ...config.social, tiktok: 't' } }],
    ['an unknown mode', { ...config, mode: 'staging' }],
    ['an unknown network', { ...config, bitcoinNetwork: 'signet' }],
    ['a missing field', { ...config, explorerUrl: undefined }],
    ['a number for text', { ...config, supportEmail: 5 }],
    ['no social links', { ...config, social: null }],
    ['a missing social link', { ...config, social: { x: 'x', facebook: 'f' } }],
    ['an undefined client id', { ...config, paypalClientId: undefined }],
    ['an array', [config]],
    ['null', null],
    ['text', 'config'],
  ];

  it.each(cases)('agrees with publicAppConfigSchema on %s', (_name, value) => {
    expect(readAppConfig(value)).toEqual(bySchema(value));
  });

  it('accepts a complete config as it is', () => {
    expect(readAppConfig(config)).toEqual(config);
  });
});
