import type { SxProps, Theme } from "@mui/material/styles";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";

/** The empty value means "any": show it (and keep the label up) instead of an empty box. */
const ANY_SHOWN = { select: { displayEmpty: true }, inputLabel: { shrink: true } } as const;

export interface ListFilterOption {
  value: string;
  label: string;
}

/** One filter over a list: a select whose first choice, the empty value, is "any". */
export function ListFilterSelect({
  label,
  value,
  onChange,
  anyLabel,
  options,
  size = "small",
  sx = { minWidth: 200 },
  testId,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  anyLabel: string;
  options: readonly ListFilterOption[];
  size?: "small" | "medium";
  sx?: SxProps<Theme>;
  testId?: string;
}) {
  return (
    <TextField select size={size} label={label} value={value} onChange={(event) => onChange(event.target.value)} slotProps={ANY_SHOWN} sx={sx} data-testid={testId}>
      <MenuItem value="">{anyLabel}</MenuItem>
      {options.map((option) => (
        <MenuItem key={option.value} value={option.value}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
}
