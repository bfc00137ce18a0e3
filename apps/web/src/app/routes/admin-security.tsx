import SecurityPage from '../../features/admin/security/security-page';
import { PasskeysCard } from '../../features/passkeys/components/passkeys-card';

/** The back office's Security page with the passkeys feature's card: an admin's passkey, its second factor. */
export default function AdminSecurityRoute() {
  return <SecurityPage passkeys={<PasskeysCard />} />;
}
