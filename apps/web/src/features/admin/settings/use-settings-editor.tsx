import { useState, type ReactNode } from 'react';
import type { FieldPath } from 'react-hook-form';
import type { FullGlobalSettings } from '@offzero/shared/api/global-settings';
import {
  formFromSettings,
  isFormChanged,
  settingsFormFieldsSchema,
  settingsFormSchema,
  type SettingsErrors,
  type SettingsForm,
} from '@offzero/shared/api/admin-settings';
import { errorMessage } from '../../../lib/api-client';
import { applyServerErrors, useZodForm } from '../../../lib/forms';
import { Switch } from '../../../components/ui/switch';
import { useSaveSettings } from '../api/save-settings';
import type { RailIdWithSettings } from '@offzero/shared/rails/rails';

type Section = keyof SettingsForm;

/** Every field's path ('order.platform_fees', 'limits.tier1.day'): the server's message keys too. */
const FIELD_PATHS = Object.entries(settingsFormFieldsSchema.shape).flatMap(([section, fields]) =>
  'unwrap' in fields
    ? // The optional groups: the limits one level deeper (tier then window), the scam shield flat.
      Object.entries(fields.unwrap().shape as Record<string, { shape?: object }>).flatMap(([key, inner]) =>
        inner.shape
          ? Object.keys(inner.shape).map((field) => `${section}.${key}.${field}`)
          : [`${section}.${key}`],
      )
    : Object.keys(fields.shape).map((field) => `${section}.${field}`),
);

/**
 * The settings form: its fields, the server's notes on whole sections, the outcome of the last save,
 * and the pieces every panel draws its fields with.
 */
export function useSettingsEditor(saved: FullGlobalSettings) {
  const form = useZodForm(settingsFormSchema, { defaultValues: formFromSettings(saved) });
  // The server's messages about a whole section or the whole request, which no single field shows.
  const [notes, setNotes] = useState<SettingsErrors>({});
  const [status, setStatus] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const save = useSaveSettings();
  const values = form.watch();
  const changed = isFormChanged(values, saved);

  /** An edit takes away the field's message, its section's note and the last save's outcome. */
  const edited = (section: Section) => {
    if (notes[section]) setNotes(({ [section]: _section, ...rest }) => rest);
    setStatus(null);
  };

  const field = <S extends Section>(section: S, name: keyof SettingsForm[S] & string) => ({
    ...form.textField(`${section}.${name}` as FieldPath<SettingsForm>, () => edited(section)),
    autoComplete: 'off',
  });

  const onSubmit = form.handleSubmit(
    (settings) => {
      setNotes({});
      save.mutate(settings, {
        onSuccess: (answer) => {
          form.reset(formFromSettings(answer.settings));
          setStatus({ tone: 'success', text: answer.message });
        },
        onError: (error) => {
          setNotes(applyServerErrors(form, error, FIELD_PATHS));
          setStatus({ tone: 'error', text: errorMessage(error, 'Could not save the settings.') });
          focusFirstError();
        },
      });
    },
    () => {
      setNotes({});
      setStatus({ tone: 'error', text: 'Some fields need attention; nothing was saved.' });
      focusFirstError();
    },
  );

  const discard = () => {
    form.reset(formFromSettings(saved));
    setNotes({});
    setStatus(null);
  };

  const sectionError = (section: Section) =>
    notes[section] ? (
      <p role="alert" className="mb-3 rounded-xl bg-red-50 p-3 text-sm text-red-700">
        {notes[section]}
      </p>
    ) : null;

  const methodSwitch = (section: RailIdWithSettings | 'lightning', label: string, description: ReactNode) => (
    <Switch
      label={label}
      description={description}
      checked={values[section].is_active}
      onChange={(next) => {
        form.setValue(`${section}.is_active`, next);
        form.clearOnEdit(`${section}.is_active`);
        edited(section);
      }}
      testId={`switch-${section}`}
    />
  );

  return {
    saved,
    form,
    status,
    save,
    changed,
    notes,
    edited,
    field,
    onSubmit,
    discard,
    sectionError,
    methodSwitch,
  };
}

export type SettingsEditorState = ReturnType<typeof useSettingsEditor>;

function focusFirstError() {
  // After React has drawn the messages: the first invalid field takes the focus.
  requestAnimationFrame(() => {
    document.querySelector<HTMLElement>('form[aria-label="Global settings"] [aria-invalid="true"]')?.focus();
  });
}
