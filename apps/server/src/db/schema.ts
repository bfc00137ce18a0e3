/**
 * The whole database schema, one file per part of the product in `tables/`. Money is stored as integer
 * cents (`_cents`) and satoshis (`_sats`); percentages as basis points (`_bps`). Nothing monetary is
 * ever a float. Every domain enum comes from packages/shared, declared once. Migrations are generated
 * from this module (drizzle.config.ts).
 */
export * from './tables/settings';
export * from './tables/accounts';
export * from './tables/messaging';
export * from './tables/orders';
export * from './tables/chain';
export * from './tables/back-office';
export * from './tables/payouts';
export * from './tables/passkeys';
export * from './tables/places';
export * from './tables/lightning';
export * from './tables/ach-files';
export * from './tables/bank';
export * from './tables/plans';
