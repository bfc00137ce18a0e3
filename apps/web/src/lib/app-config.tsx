import { createContext, useContext, type ReactNode } from 'react';
import type { PublicAppConfig } from '@offzero/shared/api/app-config';

// Runtime facts the server decides (mode, support address, links), read once at start-up so one build
// serves demo and production alike.
const AppConfigContext = createContext<PublicAppConfig | null>(null);

export function AppConfigProvider({ value, children }: { value: PublicAppConfig; children: ReactNode }) {
  return <AppConfigContext.Provider value={value}>{children}</AppConfigContext.Provider>;
}

export function useAppConfig(): PublicAppConfig {
  const config = useContext(AppConfigContext);
  if (!config) throw new Error('useAppConfig must be used inside AppConfigProvider');
  return config;
}
