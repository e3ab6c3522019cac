import type { CSSProperties } from "react";
import { unblockHelpKey } from "../../../src/client/index.js";
import type { SinoNotice } from "../../../src/client/index.js";
import { PANEL_STYLE } from "./panel-styles.js";
import { BELL_TEXTS, noticeText, unblockHelpText } from "./texts.js";

const NOTICE_STYLE: CSSProperties = { ...PANEL_STYLE, display: "flex", alignItems: "flex-start", gap: 8, padding: "12px 8px 12px 16px" };

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
      style={NOTICE_STYLE}
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
