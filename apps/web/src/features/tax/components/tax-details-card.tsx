import { useId, useState } from 'react';
import { Link } from 'react-router';
import type { W9 } from '@offzero/shared/api/tax';
import { paths } from '../../../config/paths';
import { useTaxDetails } from '../../../domain/tax-details';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { SettingsCard } from '../../../components/ui/settings-card';
import { W9Form } from './w9-form';

/** Settings' Tax details card: the W-9 on file (number masked), a way to file one, and the Tax center. */
export function TaxDetailsCard() {
  const { data: w9, isPending, isError } = useTaxDetails();
  const [editing, setEditing] = useState(false);
  return (
    <SettingsCard
      title="Tax details"
      description="Your Form W-9: we need it before your first sale, to report sales to the IRS."
      onEdit={() => setEditing(true)}
      editLabel={w9 ? 'Edit tax details' : 'Add tax details'}
      testId="tax-details-card"
    >
      {isPending ? (
        <div className="h-16 animate-pulse rounded-xl bg-slate-100" />
      ) : isError ? (
        <p className="text-sm text-slate-500">Your tax details are not available right now.</p>
      ) : w9 ? (
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm" data-testid="tax-details-value">
          <dt className="text-slate-500">Legal name</dt>
          <dd className="min-w-0 break-words font-medium text-ink-900">{w9.legalName}</dd>
          <dt className="text-slate-500">{w9.tinType}</dt>
          <dd className="font-mono text-ink-900">{w9.tin}</dd>
          <dt className="text-slate-500">Address</dt>
          <dd className="min-w-0 break-words text-ink-900">
            {w9.address.line1}, {w9.address.city}, {w9.address.state} {w9.address.postalCode}
          </dd>
          <dt className="text-slate-500">Certified</dt>
          <dd className="text-ink-900">{new Date(w9.certifiedAt).toLocaleDateString()}</dd>
        </dl>
      ) : (
        <div className="flex flex-wrap items-center gap-3" data-testid="tax-details-value">
          <Badge tone="warning">Not added yet</Badge>
          <Button size="sm" variant="outline" onClick={() => setEditing(true)}>
            Add Form W-9
          </Button>
        </div>
      )}
      <p className="mt-4 text-sm">
        <Link to={paths.taxCenter} className="font-semibold text-brand-700 hover:underline">
          Tax center: yearly exports and statements →
        </Link>
      </p>
      <TaxDetailsModal open={editing} onClose={() => setEditing(false)} current={w9 ?? null} />
    </SettingsCard>
  );
}

export function TaxDetailsModal({
  open,
  onClose,
  current,
}: {
  open: boolean;
  onClose: () => void;
  current: W9 | null;
}) {
  const formId = useId();
  return (
    <Modal
      open={open}
      onClose={onClose}
      size="lg"
      title={current ? 'Update tax details (Form W-9)' : 'Add tax details (Form W-9)'}
      description="US law requires us to report your sales of bitcoin on Form 1099-DA. Your number is encrypted and only its last four digits are ever shown."
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form={formId}>
            Save
          </Button>
        </>
      }
    >
      <W9Form formId={formId} current={current} onSaved={onClose} />
    </Modal>
  );
}
