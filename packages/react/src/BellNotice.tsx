import type { CSSProperties } from "react";
import { unblockHelpKey } from "../../../src/client/index.js";
import type { SinoNotice } from "../../../src/client/index.js";
import { BELL_TEXTS, noticeText, unblockHelpText } from "./texts.js";

const PANEL_STYLE: CSSProperties = {
  position: "absolute",
  top: "100%",
  right: 0,
  marginTop: 4,
  zIndex: 1500,
  width: "min(22rem, calc(100vw - 16px))",
  boxSizing: "border-box",
  display: "flex",
  alignItems: "flex-start",
  gap: 8,
  padding: "12px 8px 12px 16px",
  borderRadius: 4,
  background: "var(--sino-notice-background, #fff)",
  color: "var(--sino-notice-color, #1f1f1f)",
  boxShadow: "0 2px 8px rgba(0, 0, 0, 0.25)",
  fontFamily: "system-ui, sans-serif",
  fontSize: "0.875rem",
  lineHeight: 1.45,
  textAlign: "left",
};

const CLOSE_STYLE: CSSProperties = {
  flex: "none",
  width: 32,
  height: 32,
  padding: 0,
  border: "none",
  borderRadius: "50%",
  background: "transparent",
  color: "inherit",
  fontSize: "1.25rem",
  lineHeight: 1,
  cursor: "pointer",
};

/**
 * What the bell says after a click that did not simply work: how to unblock notifications in this
 * browser (its own steps), or that enabling or disabling failed. An alert, so screen readers read
 * it at once; closed with its button or Escape.
 */
export function BellNotice({ notice, onClose }: { notice: SinoNotice; onClose(): void }) {
  return (
    <div
      role="alert"
      data-sino-notice={notice}
      style={PANEL_STYLE}
      onKeyDown={(event) => {
        if (event.key === "Escape") onClose();
      }}
    >
      <div style={{ flex: 1 }}>
        {notice === "blocked" ? (
          <>
            <strong style={{ display: "block", marginBottom: 4 }}>{BELL_TEXTS.blockedTitle}</strong>
            {unblockHelpText(unblockHelpKey(navigator.userAgent, navigator.maxTouchPoints))}
          </>
        ) : (
          noticeText(notice)
        )}
      </div>
      <button type="button" aria-label={BELL_TEXTS.close} title={BELL_TEXTS.close} style={CLOSE_STYLE} onClick={onClose}>
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}
