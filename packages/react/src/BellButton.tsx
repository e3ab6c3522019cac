import { useState } from "react";
import type { CSSProperties, KeyboardEvent } from "react";
import { BellIcon } from "./bell-icons.js";
import { ROUND_BUTTON_STYLE } from "./panel-styles.js";

export interface BellButtonProps {
  on: boolean;
  /** A click is being handled: announced (aria-busy) and further clicks ignored. */
  busy: boolean;
  /** The accessible name, also shown as the tooltip (seed-spec §2). */
  label: string;
  /** The id of a text read with the bell (why it cannot be turned on), if any. */
  describedBy?: string | undefined;
  onToggle(): void;
  className?: string | undefined;
  style?: CSSProperties | undefined;
}

/**
 * Colours are CSS custom properties so a host app can theme the bell without overriding styles:
 * `--sino-bell-off-color` (grey while off, seed-spec §2), `--sino-bell-on-color`. The defaults keep
 * a 3:1 contrast on a light background (WCAG 1.4.11).
 */
const BUTTON_STYLE: CSSProperties = { ...ROUND_BUTTON_STYLE, position: "relative" };

const TOOLTIP_STYLE: CSSProperties = {
  position: "absolute",
  top: "100%",
  left: "50%",
  transform: "translateX(-50%)",
  // Padding, not margin: the pointer can move from the button onto the tooltip without leaving
  // the wrapper, so the tooltip stays while hovered (WCAG 1.4.13).
  paddingTop: 4,
  zIndex: 1500,
  whiteSpace: "nowrap",
};

const BUBBLE_STYLE: CSSProperties = {
  display: "block",
  padding: "4px 8px",
  borderRadius: 4,
  background: "var(--sino-tooltip-background, #616161)",
  color: "var(--sino-tooltip-color, #fff)",
  fontFamily: "system-ui, sans-serif",
  fontSize: "0.75rem",
  lineHeight: 1.4,
};

/**
 * The bell itself: a real `<button>` (keyboard and screen readers for free) named by `label`,
 * `aria-pressed` for on/off, and a tooltip shown on hover and on keyboard focus, dismissed with
 * Escape. Busy is `aria-disabled` rather than `disabled` so keyboard focus stays on the bell.
 */
export function BellButton({ on, busy, label, describedBy, onToggle, className, style }: BellButtonProps) {
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  const open = (hovered || focused) && !dismissed;

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Escape" && open) {
      setDismissed(true);
      event.stopPropagation();
    }
  };

  return (
    <span
      style={{ position: "relative", display: "inline-flex" }}
      onMouseEnter={() => {
        setHovered(true);
        setDismissed(false);
      }}
      onMouseLeave={() => setHovered(false)}
      onKeyDown={onKeyDown}
    >
      <button
        type="button"
        className={className}
        aria-label={label}
        aria-describedby={describedBy}
        aria-pressed={on}
        aria-busy={busy}
        aria-disabled={busy || undefined}
        data-state={on ? "on" : "off"}
        onClick={() => {
          if (!busy) onToggle();
        }}
        onFocus={() => {
          setFocused(true);
          setDismissed(false);
        }}
        onBlur={() => setFocused(false)}
        style={{
          ...BUTTON_STYLE,
          color: on ? "var(--sino-bell-on-color, #b45309)" : "var(--sino-bell-off-color, #6b6b6b)",
          background: hovered ? "rgba(0, 0, 0, 0.06)" : "transparent",
          cursor: busy ? "progress" : "pointer",
          opacity: busy ? 0.6 : 1,
          ...style,
        }}
      >
        <BellIcon on={on} />
      </button>
      {open && (
        <span role="tooltip" style={TOOLTIP_STYLE}>
          <span style={BUBBLE_STYLE}>{label}</span>
        </span>
      )}
    </span>
  );
}
