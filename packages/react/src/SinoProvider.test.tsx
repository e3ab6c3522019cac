import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SinoBell } from "./SinoBell.js";
import { SinoProvider } from "./SinoProvider.js";
import { useSino } from "./useSino.js";

function HookState() {
  const sino = useSino();
  return <output>{`${sino.state}|${sino.busy}|${sino.token === null}|${sino.channels === null}`}</output>;
}

// These run in Node: there is no `window`, as in a host app's server rendering (Next.js, Remix…).
describe("SinoProvider and useSino when rendered on the server", () => {
  it("render no bell and report 'checking' until the browser takes over, dispatching nothing", () => {
    const dispatched: unknown[] = [];
    const html = renderToString(
      <SinoProvider sinoUrl="https://sino.example" site="abc" dispatch={(action) => dispatched.push(action)}>
        <SinoBell />
        <HookState />
      </SinoProvider>,
    );
    expect(html).toBe("<output>checking|false|true|true</output>");
    expect(dispatched).toEqual([]);
  });

  it("render the same with a signed-in user, and tell no server about them", () => {
    const html = renderToString(
      <SinoProvider sinoUrl="https://sino.example" site="abc" user={{ id: "ana-4821", signature: "ab12" }}>
        <HookState />
      </SinoProvider>,
    );
    expect(html).toBe("<output>checking|false|true|true</output>");
  });

  it("say clearly when useSino() or <SinoBell /> is used outside <SinoProvider>", () => {
    expect(() => renderToString(<SinoBell />)).toThrow("must be inside <SinoProvider");
    expect(() => renderToString(<HookState />)).toThrow("must be inside <SinoProvider");
  });
});
