import { useEffect, useId, useRef } from "react";
import type { SoftPromptChoice } from "../../../src/client/index.js";
import { ACTIONS_STYLE, PANEL_STYLE, PRIMARY_ACTION_STYLE, SECONDARY_ACTION_STYLE, TITLE_STYLE } from "./panel-styles.js";
import { PROMPT_TEXTS } from "./texts.js";

/**
 * The pt-BR soft prompt under the bell, as `<sino-bell>` shows it: asks in the page first, so the
 * browser's own dialog comes only after a "yes". Non-modal (the page stays usable) but a labelled
 * dialog: focus on "Ativar notificações" when it opens and back where it was when it closes;
 * Escape = "Agora não". When and how often it opens is the client's `scheduleSoftPrompt`.
 */
export function SoftPrompt({ choice, onDone }: { choice: SoftPromptChoice; onDone(): void }) {
  const id = useId();
  const accept = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef<HTMLElement | null>(null);

  useEffect(() => {
    const active = document.activeElement;
    returnFocus.current = active instanceof HTMLElement && active !== document.body ? active : null;
    accept.current?.focus();
  }, []);

  const finish = (pick: (c: SoftPromptChoice) => void) => {
    onDone();
    returnFocus.current?.focus();
    // Inside the click: the browser's permission dialog needs the visitor's gesture.
    pick(choice);
  };

  return (
    <div
      role="dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      data-sino-prompt=""
      style={PANEL_STYLE}
      onKeyDown={(event) => {
        if (event.key === "Escape") {
          event.stopPropagation();
          finish((c) => c.later());
        }
      }}
    >
      {/* Not a heading: the prompt must not change the host page's outline. */}
      <strong id={`${id}-title`} style={TITLE_STYLE}>
        {PROMPT_TEXTS.title}
      </strong>
      <p id={`${id}-text`} style={{ margin: 0 }}>
        {PROMPT_TEXTS.text}
      </p>
      <div style={ACTIONS_STYLE}>
        <button type="button" style={SECONDARY_ACTION_STYLE} onClick={() => finish((c) => c.later())}>
          {PROMPT_TEXTS.later}
        </button>
        <button type="button" ref={accept} style={PRIMARY_ACTION_STYLE} onClick={() => finish((c) => c.accept())}>
          {PROMPT_TEXTS.accept}
        </button>
      </div>
    </div>
  );
}
