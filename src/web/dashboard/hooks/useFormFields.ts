import { useState } from "react";

export type FieldErrors<F extends string> = Partial<Record<F, string>>;

/**
 * A form's text values and their errors. `bind(field, hint)` gives a text field its name, value,
 * change handler and error state: typing clears that field's error (it answered the old text), and
 * `hint` shows while there is no error.
 */
export function useFormFields<F extends string>(initial: Record<F, string>) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors<F>>({});
  const set = (field: F, value: string) => {
    setValues((previous) => ({ ...previous, [field]: value }));
    setErrors((previous) => ({ ...previous, [field]: undefined }));
  };
  const bind = (field: F, hint?: string) => ({
    name: field,
    value: values[field],
    onChange: (event: { target: { value: string } }) => set(field, event.target.value),
    error: errors[field] !== undefined,
    helperText: errors[field] ?? hint,
  });
  const reset = () => {
    setValues(initial);
    setErrors({});
  };
  return { values, errors, setErrors, set, bind, reset };
}
