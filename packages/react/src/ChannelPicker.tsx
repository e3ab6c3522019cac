import { useEffect, useId, useRef, useState } from "react";
import type { CSSProperties } from "react";
import { channelSaveErrorMessage, exceedsChannelLimit } from "../../../src/client/index.js";
import type { PublicChannel } from "../../../src/client/index.js";
import { ChannelsIcon } from "./bell-icons.js";
import { ACTIONS_STYLE, PRIMARY_ACTION_STYLE, ROUND_BUTTON_STYLE, SECONDARY_ACTION_STYLE, TITLE_STYLE } from "./panel-styles.js";
import { CHANNEL_TEXTS } from "./texts.js";
import { useSino } from "./useSino.js";

const OPENER_STYLE: CSSProperties = { ...ROUND_BUTTON_STYLE, color: "var(--sino-bell-off-color, #6b6b6b)" };

const DIALOG_STYLE: CSSProperties = {
  width: "min(24rem, calc(100vw - 32px))",
  boxSizing: "border-box",
  padding: "16px 20px",
  border: "none",
  borderRadius: 6,
  background: "var(--sino-notice-background, #fff)",
  color: "var(--sino-notice-color, #1f1f1f)",
  boxShadow: "0 4px 16px rgba(0, 0, 0, 0.3)",
  fontFamily: "system-ui, sans-serif",
  fontSize: "0.875rem",
  lineHeight: 1.45,
  textAlign: "left",
};

const DISABLED_STYLE: CSSProperties = { opacity: 0.5, cursor: "default" };

interface Loaded {
  available: readonly PublicChannel[];
  limit: number | null;
}

/**
 * The channel choice (issue 5) beside the bell while it is on, as `<sino-bell>` offers it: a
 * button that opens a modal dialog with one checkbox per channel, the limit, "Cancelar" and
 * "Salvar". A native `<dialog>`: the browser keeps focus inside and Escape cancels; focus goes back
 * to the button. Nothing is stored until "Salvar"; the server stores all or nothing.
 */
export function ChannelPicker() {
  const { loadChannels, setChannels } = useSino();
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLFieldSetElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [chosen, setChosen] = useState<readonly string[]>([]);
  const [status, setStatus] = useState("");
  const [saving, setSaving] = useState(false);
  // Which opening a load answers: a slow answer for an earlier opening must not fill a later one.
  const opening = useRef(0);

  useEffect(() => {
    // First checkbox once the channels arrive (the dialog opened on "Cancelar" meanwhile).
    if (loaded && dialog.current?.open) list.current?.querySelector("input")?.focus();
  }, [loaded]);

  const open = () => {
    const current = ++opening.current;
    setLoaded(null);
    setChosen([]);
    setStatus(CHANNEL_TEXTS.loading);
    if (!dialog.current?.open) dialog.current?.showModal();
    cancel.current?.focus();
    loadChannels().then(
      (choice) => {
        if (current !== opening.current) return;
        setLoaded({ available: choice.available, limit: choice.limit });
        setChosen(choice.chosen);
        setStatus(choice.available.length === 0 ? CHANNEL_TEXTS.empty : "");
      },
      (error: unknown) => {
        if (current !== opening.current) return;
        console.error("Could not load the channels", error);
        setStatus(CHANNEL_TEXTS.loadFailed);
      },
    );
  };

  const save = () => {
    setSaving(true);
    setChannels(chosen).then(
      () => dialog.current?.close(),
      (error: unknown) => setStatus(channelSaveErrorMessage(error) ?? CHANNEL_TEXTS.saveFailed),
    ).finally(() => setSaving(false));
  };

  const toggle = (slug: string, checked: boolean) =>
    setChosen((current) => (checked ? [...current, slug] : current.filter((s) => s !== slug)));

  const over = exceedsChannelLimit(chosen, loaded?.limit ?? null);
  const saveDisabled = saving || over || !loaded || loaded.available.length === 0;
  const titleId = `${id}-title`;
  return (
    <>
      <button
        type="button"
        ref={opener}
        aria-label={CHANNEL_TEXTS.open}
        title={CHANNEL_TEXTS.open}
        aria-haspopup="dialog"
        style={OPENER_STYLE}
        onClick={open}
      >
        <ChannelsIcon />
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={titleId}
        data-sino-channels=""
        style={DIALOG_STYLE}
        onClose={() => {
          opening.current += 1;
          opener.current?.focus();
        }}
      >
        <h2 id={titleId} style={TITLE_STYLE}>
          {CHANNEL_TEXTS.title}
        </h2>
        <p style={{ margin: "0 0 8px" }}>{CHANNEL_TEXTS.intro}</p>
        <p role="status" aria-live="polite" style={{ margin: 0 }}>
          {status}
        </p>
        <fieldset ref={list} aria-labelledby={titleId} style={{ margin: "8px 0 0", padding: 0, border: "none" }}>
          {loaded?.available.map((channel) => (
            <label key={channel.slug} style={{ display: "flex", gap: 8, alignItems: "flex-start", padding: "4px 0" }}>
              <input
                type="checkbox"
                value={channel.slug}
                checked={chosen.includes(channel.slug)}
                onChange={(event) => toggle(channel.slug, event.target.checked)}
              />
              <span>
                <span style={{ display: "block", fontWeight: 600 }}>{channel.name}</span>
                {channel.description && <span style={{ display: "block" }}>{channel.description}</span>}
              </span>
            </label>
          ))}
        </fieldset>
        <p aria-live="polite" style={{ margin: "8px 0 0", color: "var(--sino-error-color, #b3261e)" }}>
          {over && loaded?.limit != null ? CHANNEL_TEXTS.limit(loaded.limit) : ""}
        </p>
        <div style={ACTIONS_STYLE}>
          <button type="button" ref={cancel} style={SECONDARY_ACTION_STYLE} onClick={() => dialog.current?.close()}>
            {CHANNEL_TEXTS.cancel}
          </button>
          <button type="button" style={saveDisabled ? { ...PRIMARY_ACTION_STYLE, ...DISABLED_STYLE } : PRIMARY_ACTION_STYLE} disabled={saveDisabled} onClick={save}>
            {CHANNEL_TEXTS.save}
          </button>
        </div>
      </dialog>
    </>
  );
}
