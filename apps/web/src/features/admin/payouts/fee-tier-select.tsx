import type { FeeTier } from '@offzero/shared/api/payout-batches';
import { FilterSelect } from '../components/filter-fields';

const FEE_TIERS: { value: FeeTier; label: string }[] = [
  { value: 'economy', label: 'Economy (about an hour)' },
  { value: 'standard', label: 'Standard (about 30 minutes)' },
  { value: 'priority', label: 'Priority (next block)' },
];

/** The network fee to pay, as how soon the transaction should confirm. */
export function FeeTierSelect({
  label,
  value,
  onChange,
}: {
  label: string;
  value: FeeTier;
  onChange: (tier: FeeTier) => void;
}) {
  return (
    <FilterSelect
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value as FeeTier)}
      className="min-w-52"
    >
      {FEE_TIERS.map((tier) => (
        <option key={tier.value} value={tier.value}>
          {tier.label}
        </option>
      ))}
    </FilterSelect>
  );
}
