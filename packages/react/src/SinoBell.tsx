import { useEffect, useId, useState } from "react";
import type { CSSProperties } from "react";
import { scheduleSoftPrompt, softPromptConfig } from "../../../src/client/index.js";
import type { SinoStatus, SoftPromptChoice, SoftPromptConfig } from "../../../src/client/index.js";
import { BellButton } from "./BellButton.js";
import { BellNotice } from "./BellNotice.js";
import { ChannelPicker } from "./ChannelPicker.js";
import { VISUALLY_HIDDEN_STYLE } from "./panel-styles.js";
import { SoftPrompt } from "./SoftPrompt.js";
import { useSinoClient } from "./sino-context.js";
import { BELL_TEXTS } from "./texts.js";
import { useSino } from "./useSino.js";

export interface SinoBellProps {
  /** On the `<button>`; colours also follow `--sino-bell-on-color` / `--sino-bell-off-color`. */
  className?: string;
  style?: CSSProperties;
  /** Show the pt-BR notice after a failed click (how to unblock, or what failed). Default true. */
  notices?: boolean;
  /** Show the channel picker's button beside the bell while it is on. Default true. */
  channelPicker?: boolean;
  /**
   * The optional pt-BR soft prompt before the browser's own dialog (as the snippet's
   * `data-soft-prompt`): `true` for the defaults (from the 1st visit, at once, "Agora não" for 7
   * days), or `{ visits, delaySeconds, backoffDays }` (`data-prompt-visits`, `data-prompt-delay`,
   * `data-prompt-backoff-days`). Off by default. Give it to one bell of the page only.
   */
  softPrompt?: boolean | Partial<SoftPromptConfig>;
}

/**
 * The bell of seed-spec §2/§4 for a React app, inside `<SinoProvider>`: hidden where messaging is
 * unavailable (and while it is being checked), grey with "Habilitar Notificações" while off,
 * coloured with "Desabilitar Notificações" while on. A click turns it on or off; the token goes to
 * the host's store through `setToken` (see `SinoProvider`'s `dispatch`). Like `<sino-bell>`, it
 * offers the channel picker while on and, if asked to, the soft prompt.
 */
export function SinoBell({ className, style, notices = true, channelPicker = true, softPrompt = false }: SinoBellProps) {
  const sino = useSino();
  const prompt = useSoftPrompt(softPrompt, sino.state);
  const blockedId = useId();
  if (sino.state === "checking" || sino.state === "hidden") return null;

  const on = sino.state === "on";
  const denied = sino.state === "denied";
  return (
    <span style={{ position: "relative", display: "inline-flex" }}>
      <BellButton
        on={on}
        busy={sino.busy}
        label={on ? BELL_TEXTS.disable : BELL_TEXTS.enable}
        describedBy={denied ? blockedId : undefined}
        onToggle={() => void sino.toggle()}
        className={className}
        style={style}
      />
      {denied && (
        <span id={blockedId} style={VISUALLY_HIDDEN_STYLE}>
          {BELL_TEXTS.blockedStatus}
        </span>
      )}
      {channelPicker && on && <ChannelPicker />}
      {notices && sino.notice !== null && <BellNotice notice={sino.notice} onClose={sino.dismissNotice} />}
      {prompt.choice && sino.state === "off" && <SoftPrompt choice={prompt.choice} onDone={prompt.close} />}
    </span>
  );
}

/**
 * Schedules the soft prompt with the client's rules (`scheduleSoftPrompt`: visits, delay, back-off,
 * never once the browser has asked) and holds the offer while it is open. Rescheduled only when a
 * setting changes, so an inline `softPrompt={{ … }}` does not restart the delay on each render.
 */
function useSoftPrompt(softPrompt: boolean | Partial<SoftPromptConfig>, state: SinoStatus) {
  const client = useSinoClient();
  const [choice, setChoice] = useState<SoftPromptChoice | null>(null);
  const config = softPrompt === false ? null : softPromptConfig(softPrompt === true ? {} : softPrompt);
  const { visits, delaySeconds, backoffDays } = config ?? {};
  useEffect(() => {
    if (!client || visits === undefined || delaySeconds === undefined || backoffDays === undefined) return undefined;
    return scheduleSoftPrompt({ win: window, client, config: { visits, delaySeconds, backoffDays }, offer: setChoice });
  }, [client, visits, delaySeconds, backoffDays]);
  // Turned on (or blocked) some other way meanwhile: the question is moot, and must not come back
  // (set during render, React's pattern for state that follows a prop, rather than in an effect).
  if (choice !== null && state !== "off" && state !== "checking") setChoice(null);
  return { choice, close: () => setChoice(null) };
}
