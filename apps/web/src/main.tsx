import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { publicAppConfigSchema, type PublicAppConfig } from '@offzero/shared/api/app-config';
import { App } from './app/app';
import './index.css';

// Used only if the server cannot be reached at start-up, so the public pages still render.
const fallbackConfig: PublicAppConfig = {
  mode: 'demo',
  supportEmail: 'support@offzero.com',
  blogUrl: 'https://blog.offzero.com',
  social: {
    x: 'https://x.com/offzero',
    facebook: 'https://facebook.com/offzero',
    linkedin: 'https://linkedin.com/company/offzero',
  },
  postalAddress: '1621 Central Ave, Cheyenne, WY 82001, USA',
  googleClientId: null,
  paypalClientId: null,
  bitcoinNetwork: 'testnet',
  explorerUrl: 'https://mempool.space/testnet',
};

async function loadConfig(): Promise<PublicAppConfig> {
  try {
    const response = await fetch('/api/app-config');
    if (!response.ok) return fallbackConfig;
    return publicAppConfigSchema.parse(await response.json());
  } catch {
    return fallbackConfig;
  }
}

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('The page has no #root element');

void loadConfig().then((config) => {
  createRoot(rootElement).render(
    <StrictMode>
      <App config={config} />
    </StrictMode>,
  );
});
