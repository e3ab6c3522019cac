import { useEffect, useState } from "react";
import type { SegmentCount, SegmentsApi } from "../api/segments-api.js";
import { SEGMENT_COUNT_DEBOUNCE_MS } from "./segment-editor.js";
import type { SegmentDraft } from "./segment-editor.js";

/**
 * The live count of a segment being written: nothing for an empty text, else the server's count (or
 * its refusal, with the position) of the text as it stood 400 ms after the last keystroke. While a
 * new count is on its way the previous answer stays (`pending`), so the figures do not flicker.
 */
export type SegmentCountState =
  | { status: "empty" }
  | { status: "ready"; count: SegmentCount; pending: boolean; draft: SegmentDraft }
  | { status: "error"; error: unknown; pending: boolean; draft: SegmentDraft }
  | { status: "waiting" };

export function useSegmentCount(api: SegmentsApi, draft: SegmentDraft, delayMs = SEGMENT_COUNT_DEBOUNCE_MS): SegmentCountState {
  // The latest answer and the draft it answers; the state shown is derived from it and the draft now.
  const [answer, setAnswer] = useState<{ draft: SegmentDraft; count: SegmentCount } | { draft: SegmentDraft; error: unknown } | null>(null);
  const { expression, tagKinds } = draft;
  const empty = expression.trim() === "";

  useEffect(() => {
    if (empty) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      api.count(expression, tagKinds, controller.signal).then(
        (count) => setAnswer({ draft: { expression, tagKinds }, count }),
        (error: unknown) => {
          // A newer text replaced this one: its own request answers instead.
          if (!controller.signal.aborted) setAnswer({ draft: { expression, tagKinds }, error });
        },
      );
    }, delayMs);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [api, expression, tagKinds, empty, delayMs]);

  if (empty) return { status: "empty" };
  if (answer === null) return { status: "waiting" };
  const pending = answer.draft.expression !== expression || answer.draft.tagKinds !== tagKinds;
  return "count" in answer ? { status: "ready", count: answer.count, pending, draft: answer.draft } : { status: "error", error: answer.error, pending, draft: answer.draft };
}

/** The count when it answers exactly this draft (not an older text), else null. */
export function countOf(state: SegmentCountState, draft: SegmentDraft): SegmentCount | null {
  return state.status === "ready" && !state.pending && state.draft.expression === draft.expression && state.draft.tagKinds === draft.tagKinds ? state.count : null;
}
