import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import type { ZodMiniType } from 'zod/mini';

export type TFieldError = { type: string; message?: string };

/**
 * A form of text fields checked by one zod schema, as react-hook-form does it with its defaults (validate on submit,
 * then again on every change; the first field with a problem gets the focus; field messages from the schema, server
 * reasons through setError). The log-in page uses it instead of react-hook-form, which would be a tenth of the
 * JavaScript it downloads before its form can be used (issue 12).
 */
export function useSchemaForm<TValues extends Record<string, string>, TOutput>(
  schema: ZodMiniType<TOutput, TValues>,
  defaultValues: TValues,
) {
  type TName = keyof TValues & string;
  const values = useRef<Record<string, string>>({ ...defaultValues });
  const fields = useRef(new Map<string, HTMLInputElement>());
  const order = useRef<string[]>([]);
  const submitted = useRef(false);
  const [errors, setErrors] = useState<Partial<Record<TName, TFieldError>>>({});
  const [isSubmitting, setIsSubmitting] = useState(false);

  const validate = () => {
    const result = schema.safeParse(values.current);
    const found: Partial<Record<string, TFieldError>> = {};
    if (!result.success) {
      for (const issue of result.error.issues) {
        const name = String(issue.path[0] ?? '');
        if (!found[name]) found[name] = { type: issue.code, message: issue.message };
      }
    }
    return { result, found: found as Partial<Record<TName, TFieldError>> };
  };

  const register = (name: TName) => {
    if (!order.current.includes(name)) order.current.push(name);
    return {
      name,
      defaultValue: defaultValues[name],
      ref: (element: HTMLInputElement | null) => {
        if (element) fields.current.set(name, element);
        else fields.current.delete(name);
      },
      onChange: (event: ChangeEvent<HTMLInputElement>) => {
        values.current[name] = event.target.value;
        if (!submitted.current) return;
        const { found } = validate();
        setErrors((previous) => ({ ...previous, [name]: found[name] }));
      },
    };
  };

  const setError = (name: string, error: { type?: string; message?: string }) => {
    setErrors((previous) => ({ ...previous, [name]: { type: error.type ?? 'manual', message: error.message } }));
  };

  const handleSubmit = (onValid: (data: TOutput) => Promise<void> | void) => async (event?: FormEvent) => {
    event?.preventDefault();
    submitted.current = true;
    // Autofilled fields may not have sent a change event: read what the inputs hold.
    for (const [name, element] of fields.current) values.current[name] = element.value;
    const { result, found } = validate();
    setErrors(found);
    if (!result.success) {
      const first = order.current.find((name) => found[name as TName]);
      if (first) fields.current.get(first)?.focus();
      return;
    }
    setIsSubmitting(true);
    try {
      await onValid(result.data);
    } finally {
      setIsSubmitting(false);
    }
  };

  return { register, handleSubmit, setError, formState: { errors, isSubmitting } };
}
