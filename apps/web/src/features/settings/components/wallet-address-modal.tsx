import { useMemo } from 'react';
import { WALLET_ADDRESS_MESSAGE } from '@offzero/shared/api/user-settings';
import { ADDRESS_PLACEHOLDER, type BitcoinNetwork } from '@offzero/shared/bitcoin/address';
import { bitcoinAddressField } from '@offzero/shared/bitcoin/address-field';
import { errorMessage } from '../../../lib/api-client';
import { useAppConfig } from '../../../lib/app-config';
import { useSaveSetting } from '../../../domain/user-settings';
import { SingleFieldSettingModal } from './single-field-setting-modal';

/** A payable address of the network this OffZero runs on, else 'Enter Valid Bitcoin Address.' and why. */
export function walletAddressSchema(network: BitcoinNetwork) {
  return bitcoinAddressField(network, WALLET_ADDRESS_MESSAGE);
}

const NETWORK_HINT: Record<BitcoinNetwork, string> = {
  mainnet: 'A bitcoin address from your own wallet (starts with 1, 3 or bc1).',
  testnet: 'A testnet bitcoin address from your own wallet (starts with m, n, 2 or tb1).',
  regtest: 'A regtest bitcoin address from your own wallet (starts with m, n, 2 or bcrt1).',
};

/** Add or change the address bought bitcoin is sent to. */
export function WalletAddressModal({
  open,
  onClose,
  walletAddress,
}: {
  open: boolean;
  onClose: () => void;
  walletAddress: string | null;
}) {
  const { bitcoinNetwork } = useAppConfig();
  const save = useSaveSetting();
  const schema = useMemo(() => walletAddressSchema(bitcoinNetwork), [bitcoinNetwork]);
  return (
    <SingleFieldSettingModal
      open={open}
      onClose={onClose}
      title={walletAddress ? 'Edit bitcoin wallet address' : 'Add bitcoin wallet address'}
      description="We send the bitcoin you buy here. Only you hold its keys: OffZero never keeps your coins."
      initial={walletAddress ?? ''}
      saving={save.isPending}
      schema={schema}
      save={(value, callbacks) => save.mutate({ walletAddress: value }, callbacks)}
      fieldError={errorMessage}
      field={{
        label: 'Bitcoin wallet address',
        name: 'walletAddress',
        autoComplete: 'off',
        autoCapitalize: 'off',
        spellCheck: false,
        maxLength: 100,
        placeholder: ADDRESS_PLACEHOLDER[bitcoinNetwork],
        hint: NETWORK_HINT[bitcoinNetwork],
        inputClassName: 'font-mono text-sm!',
      }}
    />
  );
}
