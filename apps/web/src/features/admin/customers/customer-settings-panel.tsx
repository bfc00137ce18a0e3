import type { CustomerDetail } from '@offzero/shared/api/admin';
import { railLabel } from '@offzero/shared/rails/rails';
import { Details, Panel } from '../components/blocks';
import { Pill } from '../components/badges';

const yesNo = (value: boolean | undefined) =>
  value === undefined ? '—' : <Pill tone={value ? 'emerald' : 'slate'}>{value ? 'on' : 'off'}</Pill>;

/** Where the customer is paid (wallet, Zelle, bank) and which notices they receive. */
export function CustomerSettingsPanel({ settings }: { settings: CustomerDetail['settings'] }) {
  const bank = settings.bankAccount;
  return (
    <Panel title="Settings" testId="customer-settings">
      <Details
        rows={[
          [
            'Wallet',
            settings.walletAddress ? (
              <span key="w" className="font-mono text-xs break-all">
                {settings.walletAddress}
              </span>
            ) : null,
          ],
          [railLabel('zelle'), settings.zelleEmail],
          [
            'Bank',
            bank ? (
              <span key="b" className="block text-sm">
                {bank.bank_name} · {bank.account_name}
                <span className="block font-mono text-xs text-slate-600">
                  {bank.account_number}
                  {bank.routing_number && ` · ABA ${bank.routing_number}`}
                  {bank.swift && ` · ${bank.swift}`}
                </span>
              </span>
            ) : null,
          ],
          ['E-mail notices', yesNo(settings.receiveEmail)],
          ['SMS notices', yesNo(settings.receiveSMS)],
        ]}
      />
    </Panel>
  );
}
