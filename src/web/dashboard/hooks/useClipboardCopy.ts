import { useState } from "react";

export type CopyStatus = "idle" | "copied" | "failed";

/**
 * Copies a text to the clipboard and says how it went. "failed" is common (no clipboard
 * permission in some browsers, or over http): callers leave the text selectable for a manual copy.
 */
export function useClipboardCopy(text: string | null): { status: CopyStatus; copy: () => Promise<void>; reset: () => void } {
  const [status, setStatus] = useState<CopyStatus>("idle");
  const copy = async () => {
    if (text === null) return;
    try {
      await navigator.clipboard.writeText(text);
      setStatus("copied");
    } catch {
      setStatus("failed");
    }
  };
  return { status, copy, reset: () => setStatus("idle") };
}
