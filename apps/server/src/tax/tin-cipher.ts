import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM for taxpayer numbers at rest (docs/design.md). A stored value is
 * `v1.<key id>.<iv>.<tag>.<ciphertext>` (base64url parts): the key id (the first 8 hex digits of the
 * key's SHA-256) says which key decrypts it, so a rotated key keeps working for old rows until they are
 * re-encrypted (`npm run tax:rewrap`). The customer id is bound as additional data, so a ciphertext
 * copied onto another customer's row does not decrypt.
 */
export interface TinCipher {
  encrypt(plain: string, userId: string): string;
  decrypt(stored: string, userId: string): string;
  /** True when the value is encrypted under a key other than the current one. */
  needsRewrap(stored: string): boolean;
}

const VERSION = 'v1';

export function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

export function createTinCipher(keys: { current: Buffer; previous: Buffer[] }): TinCipher {
  if (keys.current.length !== 32) throw new Error('the data encryption key must be 32 bytes');
  const currentId = keyId(keys.current);
  const byId = new Map<string, Buffer>();
  for (const key of [keys.current, ...keys.previous]) byId.set(keyId(key), key);

  return {
    encrypt(plain, userId) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', keys.current, iv);
      cipher.setAAD(Buffer.from(userId, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, currentId, iv, cipher.getAuthTag(), ciphertext]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    decrypt(stored, userId) {
      const [version, id, iv, tag, ciphertext] = stored.split('.');
      const key = id === undefined ? undefined : byId.get(id);
      if (version !== VERSION || !key || !iv || !tag || ciphertext === undefined) {
        // Names the key id only: which key an operator must restore, never any of the data.
        throw new Error(`cannot decrypt a stored value: no configured key has id ${id ?? '?'}`);
      }
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(userId, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(ciphertext, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    },
    needsRewrap(stored) {
      return stored.split('.')[1] !== currentId;
    },
  };
}
