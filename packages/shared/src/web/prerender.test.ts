import { describe, expect, it } from 'vitest';
import type { PublicAppConfig } from '../api/app-config';
import {
  appConfigScript,
  fillPrerenderedPage,
  prerenderConfig,
  prerenderFits,
  type PrerenderedPage,
} from './prerender';

const demo: PublicAppConfig = {
  ...prerenderConfig({ mode: 'demo', bitcoinNetwork: 'testnet' }),
  supportEmail: 'help@example.com',
  blogUrl: 'https://blog.example.com/?a=1&b=2',
  postalAddress: '1 Main St',
  social: { x: 'https://x.com/a', facebook: 'https://facebook.com/a', linkedin: 'https://linkedin.com/a' },
  explorerUrl: 'https://mempool.space/testnet',
};
const page = (path: string, showsGoogleSignIn: boolean): PrerenderedPage => ({
  path,
  file: 'x.html',
  mode: 'demo',
  bitcoinNetwork: 'testnet',
  showsGoogleSignIn,
});

describe('prerendered pages', () => {
  it('are used only where the deployment renders the same page', () => {
    expect(prerenderFits(page('/about-us', false), demo)).toBe(true);
    expect(prerenderFits(page('/about-us', false), { ...demo, mode: 'production' })).toBe(false);
    expect(prerenderFits(page('/about-us', false), { ...demo, bitcoinNetwork: 'mainnet' })).toBe(false);
    // With Google sign-in on, the sign-in pages show its button: they fall back to the app.
    const withGoogle = { ...demo, googleClientId: 'client.apps.googleusercontent.com' };
    expect(prerenderFits(page('/login', true), withGoogle)).toBe(false);
    expect(prerenderFits(page('/about-us', false), withGoogle)).toBe(true);
    expect(prerenderFits(page('/about-us', false), { ...demo, paypalClientId: 'paypal-id' })).toBe(true);
  });

  it('are filled in with every text setting, escaped for HTML', () => {
    const template = prerenderConfig({ mode: 'demo', bitcoinNetwork: 'testnet' });
    const html = `<a href="${template.blogUrl}">Blogs</a><a href="mailto:${template.supportEmail}">${template.supportEmail}</a><a href="${template.social.x}"></a>`;
    const filled = fillPrerenderedPage(html, { ...demo, supportEmail: '"><script>x</script>' });
    expect(filled).toContain('href="https://blog.example.com/?a=1&#38;b=2"');
    expect(filled).toContain('&#34;&#62;&#60;script&#62;x&#60;/script&#62;');
    expect(filled).toContain('href="https://x.com/a"');
    expect(filled).not.toContain('<script>');
  });

  it('carry the settings in a data block that no value can close', () => {
    const script = appConfigScript({ ...demo, postalAddress: '</script><script>alert(1)</script>' });
    expect(script.startsWith('<script type="application/json" id="app-config">')).toBe(true);
    expect(script.match(/<\/script>/g)).toHaveLength(1);
    const json = script.slice(script.indexOf('>') + 1, script.lastIndexOf('</script>'));
    expect((JSON.parse(json) as PublicAppConfig).postalAddress).toBe('</script><script>alert(1)</script>');
  });
});
