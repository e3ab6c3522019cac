import type { CSSProperties } from "react";

/**
 * The look the bell's panels share (the notice, the soft prompt, the channel picker): light by
 * default, themable through CSS custom properties, with 4.5:1 text contrast (WCAG 1.4.3).
 */
export const PANEL_STYLE: CSSProperties = {
  position: "absolute",
  top: "100%",
  right: 0,
  marginTop: 4,
  zIndex: 1500,
  width: "min(22rem, calc(100vw - 16px))",
  boxSizing: "border-box",
  padding: "12px 16px",
  borderRadius: 4,
  background: "var(--sino-notice-background, #fff)",
  color: "var(--sino-notice-color, #1f1f1f)",
  boxShadow: "0 2px 8px rgba(0, 0, 0, 0.25)",
  fontFamily: "system-ui, sans-serif",
  fontSize: "0.875rem",
  lineHeight: 1.45,
  textAlign: "left",
};

/** A round, borderless icon button of 48 px: the bell and the picker's opener beside it. */
export const ROUND_BUTTON_STYLE: CSSProperties = {
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  // 48 px: a comfortable touch target (WCAG 2.5.8 asks for at least 24).
  width: 48,
  height: 48,
  padding: 0,
  border: "none",
  borderRadius: "50%",
  background: "transparent",
  cursor: "pointer",
  font: "inherit",
};

const ACTION_STYLE: CSSProperties = {
  minHeight: 36,
  padding: "6px 14px",
  borderRadius: 4,
  font: "inherit",
  fontWeight: 600,
  cursor: "pointer",
};

/** The main action ("Ativar notificações", "Salvar"). */
export const PRIMARY_ACTION_STYLE: CSSProperties = {
  ...ACTION_STYLE,
  border: "1px solid var(--sino-accent, #92400e)",
  background: "var(--sino-accent, #92400e)",
  color: "var(--sino-accent-text, #fff)",
};

/** The other action ("Agora não", "Cancelar"). */
export const SECONDARY_ACTION_STYLE: CSSProperties = {
  ...ACTION_STYLE,
  border: "1px solid currentColor",
  background: "transparent",
  color: "inherit",
};

export const ACTIONS_STYLE: CSSProperties = { display: "flex", justifyContent: "flex-end", gap: 8, marginTop: 12 };

export const TITLE_STYLE: CSSProperties = { display: "block", margin: "0 0 4px", fontWeight: 600, fontSize: "1rem" };

/** Read by screen readers, not shown. */
export const VISUALLY_HIDDEN_STYLE: CSSProperties = {
  position: "absolute",
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: "hidden",
  clip: "rect(0, 0, 0, 0)",
  whiteSpace: "nowrap",
  border: 0,
};
