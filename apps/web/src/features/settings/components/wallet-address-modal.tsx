import { useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { WALLET_ADDRESS_MESSAGE } from '@offzero/shared/api/user-settings';
import { isValidBitcoinAddress, type BitcoinNetwork } from '@offzero/shared/bitcoin/address';
import { errorMessage } from '../../../lib/api-client';
import { useAppConfig } from '../../../app/app-config';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { TextField } from '../../../components/ui/text-field';
import { useSaveSetting } from '../api/user-settings';

/** A payable address of the network this OffZero runs on, else 'Enter Valid Bitcoin Address'. */
export function walletAddressError(value: string, network: BitcoinNetwork): string | null {
  return isValidBitcoinAddress(value.trim(), network) ? null : WALLET_ADDRESS_MESSAGE;
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
  const formId = useId();
  const save = useSaveSetting();
  return (
    <Modal
      open={open}
      onClose={onClose}
      dismissible={!save.isPending}
      title={walletAddress ? 'Edit bitcoin wallet address' : 'Add bitcoin wallet address'}
      description="We send the bitcoin you buy here. Only you hold its keys: OffZero never keeps your coins."
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" form={formId} loading={save.isPending}>
            Save
          </Button>
        </>
      }
    >
      <WalletForm formId={formId} initial={walletAddress ?? ''} save={save} onSaved={onClose} />
    </Modal>
  );
}

function WalletForm({
  formId,
  initial,
  save,
  onSaved,
}: {
  formId: string;
  initial: string;
  save: ReturnType<typeof useSaveSetting>;
  onSaved: () => void;
}) {
  const { bitcoinNetwork } = useAppConfig();
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string | null>(null);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = walletAddressError(value, bitcoinNetwork);
    setError(found);
    if (found) {
      toast.error(found);
      return;
    }
    save.mutate(
      { walletAddress: value.trim() },
      {
        onSuccess: (answer) => {
          toast.success(answer.message);
          onSaved();
        },
        onError: (failure) => {
          setError(errorMessage(failure));
          toast.error(errorMessage(failure));
        },
      },
    );
  }

  return (
    <form id={formId} noValidate onSubmit={submit}>
      <TextField
        label="Bitcoin wallet address"
        name="walletAddress"
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        maxLength={100}
        value={value}
        onChange={(event) => {
          setValue(event.target.value);
          setError(null);
        }}
        error={error}
        hint={NETWORK_HINT[bitcoinNetwork]}
        inputClassName="font-mono text-sm!"
      />
    </form>
  );
}
