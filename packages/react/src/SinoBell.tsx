import type { CSSProperties } from "react";
import { BellButton } from "./BellButton.js";
import { BellNotice } from "./BellNotice.js";
import { BELL_TEXTS } from "./texts.js";
import { useSino } from "./useSino.js";

export interface SinoBellProps {
  /** On the `<button>`; colours also follow `--sino-bell-on-color` / `--sino-bell-off-color`. */
  className?: string;
  style?: CSSProperties;
  /** Show the pt-BR notice after a failed click (how to unblock, or what failed). Default true. */
  notices?: boolean;
}

/**
 * The bell of seed-spec §2/§4 for a React app, inside `<SinoProvider>`: hidden where messaging is
 * unavailable (and while it is being checked), grey with "Habilitar Notificações" while off,
 * coloured with "Desabilitar Notificações" while on. A click turns it on or off; the token goes to
 * the host's store through `setToken` (see `SinoProvider`'s `dispatch`).
 */
export function SinoBell({ className, style, notices = true }: SinoBellProps) {
  const sino = useSino();
  if (sino.state === "checking" || sino.state === "hidden") return null;

  const on = sino.state === "on";
  return (
    <span style={{ position: "relative", display: "inline-flex" }}>
      <BellButton
        on={on}
        busy={sino.busy}
        label={on ? BELL_TEXTS.disable : BELL_TEXTS.enable}
        onToggle={() => void sino.toggle()}
        className={className}
        style={style}
      />
      {notices && sino.notice !== null && <BellNotice notice={sino.notice} onClose={sino.dismissNotice} />}
    </span>
  );
}
