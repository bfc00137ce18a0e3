import { zodResolver } from '@hookform/resolvers/zod';
import {
  get,
  useForm,
  type FieldErrors,
  type FieldPath,
  type FieldValues,
  type UseFormProps,
  type UseFormReturn,
} from 'react-hook-form';
import type { z } from 'zod';
import { ApiError } from './api-client';

/**
 * Every form of the web app: react-hook-form checked by a zod schema, the shared one of
 * packages/shared wherever the server checks the same thing. As the product specification has it, a form is
 * checked when it is submitted, not at every key press, and editing a field takes its message away
 * (`textField` does that for text inputs; `clearOnEdit` for other controls).
 */
export function useZodForm<Input extends FieldValues, Output>(
  schema: z.ZodType<Output, Input>,
  options: Omit<UseFormProps<Input, unknown, Output>, 'resolver'> = {},
): ZodForm<Input, Output> {
  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(schema),
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    // Screens decide where the focus goes (most keep it where the customer is).
    shouldFocusError: false,
    ...options,
  });
  const errorOf = (name: FieldPath<Input>) => fieldError(form.formState.errors, name);
  return {
    ...form,
    errorOf,
    textField: (name, onEdit) => ({
      ...form.register(name, {
        onChange: () => {
          form.clearErrors(name);
          onEdit?.();
        },
      }),
      error: errorOf(name),
    }),
    clearOnEdit: (name) => form.clearErrors(name),
  };
}

export type ZodForm<Input extends FieldValues, Output> = UseFormReturn<Input, unknown, Output> & {
  /** The message of one field, or null. */
  errorOf: (name: FieldPath<Input>) => string | null;
  /** What a `TextField` needs: the registered input, its message, and edits clear the message. */
  textField: (
    name: FieldPath<Input>,
    onEdit?: () => void,
  ) => ReturnType<UseFormReturn<Input>['register']> & { error: string | null };
  /** Takes a field's message away when the customer edits it through a control of its own. */
  clearOnEdit: (name: FieldPath<Input>) => void;
};

/** The message stored for `name` ('order.platform_fees' reaches into nested fields), or null. */
export function fieldError<Input extends FieldValues>(
  errors: FieldErrors<Input>,
  name: string,
): string | null {
  const message = get<FieldErrors<Input>, { message?: unknown } | undefined>(errors, name)?.message;
  return typeof message === 'string' && message ? message : null;
}

/** The first message of a failed submit, in the order the fields are listed (for the toast). */
export function firstError<Input extends FieldValues>(
  errors: FieldErrors<Input>,
  order: readonly FieldPath<Input>[],
): string | null {
  for (const name of order) {
    const message = fieldError(errors, name);
    if (message) return message;
  }
  return null;
}

/**
 * Puts the server's field messages (`errors` of a 400 answer) on the fields they name, for the fields
 * `fields` lists; answers the messages about anything else (a section, the whole body), by key.
 */
export function applyServerErrors<Input extends FieldValues>(
  form: Pick<UseFormReturn<Input, unknown, unknown>, 'setError'>,
  error: unknown,
  fields: readonly string[],
  toField: (key: string) => string = (key) => key,
): Record<string, string> {
  const others: Record<string, string> = {};
  if (!(error instanceof ApiError) || !error.errors) return others;
  for (const [key, message] of Object.entries(error.errors)) {
    const field = toField(key);
    if (fields.includes(field)) form.setError(field as FieldPath<Input>, { type: 'server', message });
    else others[key] = message;
  }
  return others;
}
