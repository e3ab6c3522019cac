import { useEffect, useState } from "react";
import { useSelector } from "react-redux";
import { SinoBell, selectSinoToken, useSino } from "@sino/react";
import type { SinoBellProps, SinoClick, SinoToken } from "@sino/react";
import { Channels } from "./Channels.js";

/**
 * The page: a header with `<SinoBell />`, what the host's store holds (the token arrives there
 * through `setToken`), and a custom control on `useSino()`. The browser test reads the
 * `data-testid`s; the texts are pt-BR like any page of a Sino site.
 */
export function App({ softPrompt }: Pick<SinoBellProps, "softPrompt">) {
  const token = useSelector((state: { sino: { token: SinoToken | null } }) => selectSinoToken(state));
  const sino = useSino();
  // A notification click handed to this page, as an app would route on its data.
  const [lastClick, setLastClick] = useState<SinoClick | null>(null);
  const { onClick } = sino;
  useEffect(() => onClick(setLastClick), [onClick]);
  return (
    <>
      <header style={{ display: "flex", alignItems: "center", justifyContent: "space-between", padding: "0 16px" }}>
        <p style={{ fontWeight: 600 }}>Loja de teste</p>
        <SinoBell softPrompt={softPrompt} />
      </header>
      <main style={{ padding: "0 16px", fontFamily: "system-ui, sans-serif" }}>
        <h1>Aplicativo de teste do @sino/react</h1>
        <dl>
          <dt>Estado (useSino)</dt>
          <dd data-testid="hook-state">{sino.state}</dd>
          <dt>Token no store do aplicativo</dt>
          <dd data-testid="store-token">{token ? token.endpoint : "nenhum"}</dd>
          <dt>Canais</dt>
          <dd data-testid="hook-channels">{sino.channels ? sino.channels.join(", ") : "nenhum"}</dd>
          <dt>Último clique numa notificação (useSino().onClick)</dt>
          <dd data-testid="last-click">{lastClick ? JSON.stringify(lastClick) : "nenhum"}</dd>
        </dl>
        <button type="button" disabled={sino.state !== "on" || sino.busy} onClick={() => void sino.unsubscribe()}>
          Desativar pelo useSino()
        </button>
        <Channels />
      </main>
    </>
  );
}
