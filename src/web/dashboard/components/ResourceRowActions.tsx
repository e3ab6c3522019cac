import type { ReactNode } from "react";
import { Link as RouterLink } from "react-router";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import Tooltip from "@mui/material/Tooltip";

/** A row's buttons side by side at the right of its last cell; they wrap on a narrow screen unless `wrap` is false. */
export function RowActions({ children, wrap = true }: { children: ReactNode; wrap?: boolean }) {
  return (
    <Stack direction="row" spacing={1} sx={{ justifyContent: "flex-end", alignItems: "center", flexWrap: wrap ? "wrap" : undefined }}>
      {children}
    </Stack>
  );
}

/**
 * An icon button for one row: the tooltip says the action, the accessible name says it for this
 * row ("Excluir https://loja.example"). One that can be disabled sits in a span, since a disabled
 * button fires no events and its tooltip says why it is off.
 */
export function RowIconAction({
  title,
  label,
  icon,
  onClick,
  disabled,
  color,
  testId,
}: {
  title: string;
  label: string;
  icon: ReactNode;
  onClick: () => void;
  disabled?: boolean;
  color?: "error";
  testId?: string;
}) {
  const button = (
    <IconButton aria-label={label} onClick={onClick} disabled={disabled} color={color} data-testid={testId}>
      {icon}
    </IconButton>
  );
  return <Tooltip title={title}>{disabled === undefined ? button : <span>{button}</span>}</Tooltip>;
}

/** A small text button for one row, named for it; `to` makes it a link inside the Painel. */
export function RowTextAction({
  text,
  label,
  onClick,
  to,
  color,
  variant,
}: {
  text: string;
  label: string;
  onClick?: () => void;
  to?: string;
  color?: "error";
  variant?: "outlined";
}) {
  if (to !== undefined) {
    return (
      <Button size="small" variant={variant} color={color} component={RouterLink} to={to} aria-label={label}>
        {text}
      </Button>
    );
  }
  return (
    <Button size="small" variant={variant} color={color} onClick={onClick} aria-label={label}>
      {text}
    </Button>
  );
}
