/**
 * Every variable production requires, with values that reach no real provider (every outside address is
 * a closed loopback port), so a test can start the app in production mode and vary one thing.
 */
export const PRODUCTION_TEST_ENV = {
  APP_MODE: 'production',
  DATABASE_URL: 'postgres://unused-by-the-factory/offzero',
  PUBLIC_URL: 'https://offzero.example',
  ADMIN_EMAILS: 'ops@offzero.example',
  DATA_ENCRYPTION_KEY: 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=',
  SMTP_URL: 'smtp://127.0.0.1:1',
  MAIL_FROM: 'OffZero <no-reply@offzero.example>',
  TWILIO_ACCOUNT_SID: 'AC1',
  TWILIO_AUTH_TOKEN: 'token',
  TWILIO_FROM_NUMBER: '+15005550006',
  TWILIO_API_URL: 'http://127.0.0.1:1',
  EXPLORER_URL: 'https://mempool.space',
  SUMSUB_APP_TOKEN: 'sbx:app',
  SUMSUB_SECRET_KEY: 'secret',
  SUMSUB_WEBHOOK_SECRET: 'webhook-secret',
  SUMSUB_API_URL: 'http://127.0.0.1:1',
  PAYPAL_CLIENT_ID: 'paypal-client',
  PAYPAL_CLIENT_SECRET: 'paypal-secret',
  PAYPAL_WEBHOOK_ID: 'WH0PAYPAL0TEST',
  PAYPAL_API_URL: 'http://127.0.0.1:1',
  INCREASE_API_KEY: 'increase-key',
  INCREASE_ACCOUNT_ID: 'account_in71c4amph0vgo2qllky',
  INCREASE_SOURCE_ACCOUNT_NUMBER_ID: 'account_number_v18nkfqm6afpsrvy82b2',
  INCREASE_WEBHOOK_SECRET: 'whsec_test',
  INCREASE_API_URL: 'http://127.0.0.1:1',
  COINBASE_API_URL: 'http://127.0.0.1:1',
  KRAKEN_API_URL: 'http://127.0.0.1:1',
  ESPLORA_URL: 'http://127.0.0.1:1/api',
  DEPOSIT_XPUB:
    'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs',
};
