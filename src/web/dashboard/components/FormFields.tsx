import type { ReactNode } from "react";
import Alert from "@mui/material/Alert";
import Stack from "@mui/material/Stack";
import type { SxProps, Theme } from "@mui/material/styles";

/** A form's error that belongs to no one field: announced at once (role="alert"). */
export function FormError({ error, sx, testId }: { error: string | null | undefined; sx?: SxProps<Theme>; testId?: string }) {
  if (!error) return null;
  return (
    <Alert severity="error" role="alert" sx={sx} data-testid={testId}>
      {error}
    </Alert>
  );
}

/** A dialog form's fields in a column, the form's own error above them. */
export function FormFields({ error, spacing = 2.5, children }: { error?: string | null | undefined; spacing?: number; children: ReactNode }) {
  return (
    <Stack spacing={spacing} sx={{ pt: 1 }}>
      <FormError error={error} />
      {children}
    </Stack>
  );
}
