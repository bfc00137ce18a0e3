import { useId } from 'react';
import { Button } from '../../../components/ui/button';
import { W9Form } from './w9-form';

/** The sell flow's tax details step: the W-9 form and one button that files it and goes on. */
export function W9StepForm({ onSaved }: { onSaved: () => void }) {
  const formId = useId();
  return (
    <W9Form
      formId={formId}
      current={null}
      onSaved={onSaved}
      footer={(saving) => (
        <Button type="submit" fullWidth loading={saving}>
          Save and continue
        </Button>
      )}
    />
  );
}
