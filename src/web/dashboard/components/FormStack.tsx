import type { ReactNode } from "react";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import { FormError } from "./FormFields.js";

export interface FormStackProps {
  /** Called on submit (the browser's own validation is off: the page checks its fields itself). */
  onSubmit: () => void | Promise<void>;
  /** The form's error that belongs to no one field, above the fields. */
  error: string | null;
  errorTestId?: string;
  busy: boolean;
  submitLabel: string;
  "aria-label"?: string;
  children: ReactNode;
  /** Below the submit button (another way out: back, sign out). */
  footer?: ReactNode;
}

/** A page's one form (set-up, sign-in, password): a column of fields and a full-width submit button. */
export function FormStack({ onSubmit, error, errorTestId, busy, submitLabel, "aria-label": ariaLabel, children, footer }: FormStackProps) {
  return (
    <Stack
      component="form"
      noValidate
      spacing={2.5}
      onSubmit={(event) => {
        event.preventDefault();
        void onSubmit();
      }}
      aria-label={ariaLabel}
    >
      <FormError error={error} testId={errorTestId} />
      {children}
      <Button type="submit" variant="contained" size="large" loading={busy} fullWidth>
        {submitLabel}
      </Button>
      {footer}
    </Stack>
  );
}
