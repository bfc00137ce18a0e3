// Operators the browser suite adds to the demo server's two (the Playwright config lists them in
// ADMIN_EMAILS): a spec that changes an admin's sign-in (a passkey as the second factor) uses its own,
// so the shared demo admins keep signing in with an e-mail code alone.

/** The admin who registers a passkey and signs in with it as the second factor (admin-passkey.spec.ts). */
export const PASSKEY_ADMIN_EMAIL = 'passkey.admin@offzero.local';
