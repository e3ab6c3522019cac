import { useState } from "react";
import { ConfirmDialog } from "./ConfirmDialog.js";

export interface ResourceConfirmProps<T> {
  /** The row asked about; the dialog is open while it is set. */
  target: T | null;
  title: (row: T) => string;
  text: (row: T) => string;
  confirmLabel: string | ((row: T) => string);
  /** Red confirm button for what cannot be undone. */
  destructive?: boolean | ((row: T) => boolean);
  /** Does it (remove, revoke, archive) and updates the list; a throw keeps the dialog open with the error. */
  onConfirm: (row: T) => Promise<void>;
  onClose: () => void;
}

/**
 * Asks before an action on one row of a list. The texts stay those of the last row asked about
 * while the dialog fades out, so they never empty mid-animation.
 */
export function ResourceConfirm<T>({ target, title, text, confirmLabel, destructive = false, onConfirm, onClose }: ResourceConfirmProps<T>) {
  const [shown, setShown] = useState<T | null>(target);
  if (target !== null && target !== shown) setShown(target);
  const row = target ?? shown;
  const of = <V,>(value: V | ((row: T) => V), fallback: V): V => (row === null ? fallback : typeof value === "function" ? (value as (row: T) => V)(row) : value);
  return (
    <ConfirmDialog
      open={target !== null}
      title={row === null ? "" : title(row)}
      text={row === null ? "" : text(row)}
      confirmLabel={of(confirmLabel, "")}
      destructive={of(destructive, false)}
      onClose={onClose}
      onConfirm={async () => {
        if (target !== null) await onConfirm(target);
      }}
    />
  );
}
