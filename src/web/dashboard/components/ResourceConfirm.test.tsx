/**
 * What the confirmation hands to ConfirmDialog (which owns the clicks, the busy state and the
 * error line): the row's texts, and an action that works on the row asked about.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import type { ConfirmDialogProps } from "./ConfirmDialog.js";
import { ResourceConfirm } from "./ResourceConfirm.js";

const seen: ConfirmDialogProps[] = [];
vi.mock("./ConfirmDialog.js", () => ({
  ConfirmDialog: (props: ConfirmDialogProps) => {
    seen.push(props);
    return null;
  },
}));

interface Token {
  id: string;
  name: string;
}

function ask(target: Token | null, onConfirm: (row: Token) => Promise<void>): ConfirmDialogProps {
  seen.length = 0;
  renderToStaticMarkup(
    <ResourceConfirm
      target={target}
      title={(token) => `Revogar ${token.name}?`}
      text={() => "Scripts que o usam param na hora."}
      confirmLabel={(token) => `Revogar ${token.name}`}
      destructive
      onConfirm={onConfirm}
      onClose={() => undefined}
    />,
  );
  expect(seen).toHaveLength(1);
  return seen[0]!;
}

describe("the confirmation's action", () => {
  it("is closed, with no texts, while no row is asked about, and does nothing if confirmed", async () => {
    const run = vi.fn(() => Promise.resolve());
    const props = ask(null, run);
    expect(props).toMatchObject({ open: false, title: "", text: "", confirmLabel: "" });
    await props.onConfirm();
    expect(run).not.toHaveBeenCalled();
  });

  it("opens with the row's texts and runs the action on that row", async () => {
    const run = vi.fn((_token: Token) => Promise.resolve());
    const props = ask({ id: "t7", name: "deploy" }, run);
    expect(props).toMatchObject({ open: true, title: "Revogar deploy?", text: "Scripts que o usam param na hora.", confirmLabel: "Revogar deploy", destructive: true });
    await props.onConfirm();
    expect(run).toHaveBeenCalledExactlyOnceWith({ id: "t7", name: "deploy" });
  });

  it("lets a failure through, so the dialog stays open and shows it", async () => {
    const props = ask({ id: "t7", name: "deploy" }, () => Promise.reject(new Error("Token não encontrado.")));
    await expect(props.onConfirm()).rejects.toThrow("Token não encontrado.");
  });
});
