/**
 * The fee rate (sat/vB) a buy payout should pay: Esplora's estimate for confirmation within about three
 * blocks (`GET /fee-estimates` answers `{ "1": 87.9, "3": 45.2, "6": 30.1, ... }`).
 */
export function esploraFeeRate(esploraUrl: string): () => Promise<number> {
  return async () => {
    const response = await fetch(`${esploraUrl}/fee-estimates`, { signal: AbortSignal.timeout(5_000) });
    if (!response.ok) throw new Error(`Esplora fee estimates answered HTTP ${response.status}`);
    const body = (await response.json()) as Record<string, unknown>;
    const rate = body['3'] ?? body['2'] ?? body['1'];
    if (typeof rate !== 'number' || !Number.isFinite(rate) || rate <= 0 || rate > 10_000) {
      throw new Error('Esplora fee estimates have no usable rate');
    }
    return rate;
  };
}

/** Demo: a calm network around 12 sat/vB. */
export function demoFeeRate(): () => Promise<number> {
  return async () => 10 + Math.round(Math.random() * 40) / 10;
}
