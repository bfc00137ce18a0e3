import type { PublicAppConfig } from '../api/app-config';

/**
 * Public pages are rendered to HTML when the web app is built, before any deployment's settings are
 * known. Their text settings (support address, links, postal address) are rendered as placeholders that
 * the server fills in once at start-up; the settings that change a page's shape (mode, network, Google
 * sign-in) are fixed per rendered variant, and the server uses a variant only when they match its own.
 */

/** Where the build writes the rendered pages and their list, inside the web app's dist directory. */
export const PRERENDER_DIR = 'prerendered';
export const PRERENDER_MANIFEST = 'manifest.json';

/** The id of the JSON block carrying the deployment's public settings in every served page. */
export const APP_CONFIG_ELEMENT_ID = 'app-config';

export interface PrerenderedPage {
  /** The browser path it answers (`/`, `/about-us`…). */
  path: string;
  /** Its file, relative to the prerender directory. */
  file: string;
  mode: PublicAppConfig['mode'];
  bitcoinNetwork: PublicAppConfig['bitcoinNetwork'];
  /**
   * The page holds the Google button, which a prerendered page never shows: it is served only where
   * Google sign-in is off. (PayPal's buttons appear only at checkout, never in a first render.)
   */
  showsGoogleSignIn: boolean;
}

/** The variants the build renders: the demo's and production's usual settings. */
export const PRERENDER_VARIANTS: Pick<PrerenderedPage, 'mode' | 'bitcoinNetwork'>[] = [
  { mode: 'demo', bitcoinNetwork: 'testnet' },
  { mode: 'production', bitcoinNetwork: 'mainnet' },
];

const PLACEHOLDERS = {
  supportEmail: '__OFFZERO_SUPPORT_EMAIL__',
  blogUrl: '__OFFZERO_BLOG_URL__',
  postalAddress: '__OFFZERO_POSTAL_ADDRESS__',
  socialX: '__OFFZERO_SOCIAL_X__',
  socialFacebook: '__OFFZERO_SOCIAL_FACEBOOK__',
  socialLinkedin: '__OFFZERO_SOCIAL_LINKEDIN__',
  explorerUrl: '__OFFZERO_EXPLORER_URL__',
} as const;

/** The settings a page is rendered with at build time: placeholders for every text setting. */
export function prerenderConfig(variant: Pick<PrerenderedPage, 'mode' | 'bitcoinNetwork'>): PublicAppConfig {
  return {
    mode: variant.mode,
    bitcoinNetwork: variant.bitcoinNetwork,
    supportEmail: PLACEHOLDERS.supportEmail,
    blogUrl: PLACEHOLDERS.blogUrl,
    postalAddress: PLACEHOLDERS.postalAddress,
    social: {
      x: PLACEHOLDERS.socialX,
      facebook: PLACEHOLDERS.socialFacebook,
      linkedin: PLACEHOLDERS.socialLinkedin,
    },
    explorerUrl: PLACEHOLDERS.explorerUrl,
    googleClientId: null,
    paypalClientId: null,
  };
}

/** True when a page rendered for `page` shows exactly what `config` would render. */
export function prerenderFits(page: PrerenderedPage, config: PublicAppConfig): boolean {
  return (
    page.mode === config.mode &&
    page.bitcoinNetwork === config.bitcoinNetwork &&
    (!page.showsGoogleSignIn || config.googleClientId === null)
  );
}

/** Text made safe to place in HTML, between tags or in a quoted attribute. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The page with its placeholders replaced by this deployment's settings (escaped for HTML). */
export function fillPrerenderedPage(html: string, config: PublicAppConfig): string {
  const values: Record<keyof typeof PLACEHOLDERS, string> = {
    supportEmail: config.supportEmail,
    blogUrl: config.blogUrl,
    postalAddress: config.postalAddress,
    socialX: config.social.x,
    socialFacebook: config.social.facebook,
    socialLinkedin: config.social.linkedin,
    explorerUrl: config.explorerUrl,
  };
  let filled = html;
  for (const [key, placeholder] of Object.entries(PLACEHOLDERS)) {
    filled = filled.replaceAll(placeholder, escapeHtml(values[key as keyof typeof PLACEHOLDERS]));
  }
  return filled;
}

/**
 * The settings as a JSON data block for the page's head. A data block is never run, so the content
 * security policy's script rules do not apply; `<` is escaped so no value can close the element.
 */
export function appConfigScript(config: PublicAppConfig): string {
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${APP_CONFIG_ELEMENT_ID}">${json}</script>`;
}
