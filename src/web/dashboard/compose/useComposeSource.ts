import { useCallback, useEffect, useState } from "react";
import type { Notification } from "../../../shared/api/notifications.js";
import type { Template } from "../../../shared/api/templates.js";
import { useDashboardServices } from "../services.js";

/** What compose was opened from (`?modelo=`, `?duplicar=`, `?editar=`), or nothing. */
export type ComposeSourceKey = { kind: "template" | "duplicate" | "edit"; id: string } | null;

export type ComposeSourceState =
  | { status: "none" }
  | { status: "loading"; key: NonNullable<ComposeSourceKey> }
  | { status: "error"; key: NonNullable<ComposeSourceKey>; error: unknown }
  | { status: "ready"; key: NonNullable<ComposeSourceKey>; template: Template; send?: undefined }
  | { status: "ready"; key: NonNullable<ComposeSourceKey>; send: Notification; template?: undefined };

/** The source named by compose's query string: `modelo` wins over `duplicar`, which wins over `editar`. */
export function composeSourceKey(params: URLSearchParams): ComposeSourceKey {
  const id = (name: string) => {
    const value = params.get(name);
    return value !== null && /^\d{1,15}$/.test(value) ? value : null;
  };
  const template = id("modelo");
  if (template !== null) return { kind: "template", id: template };
  const duplicate = id("duplicar");
  if (duplicate !== null) return { kind: "duplicate", id: duplicate };
  const edit = id("editar");
  return edit === null ? null : { kind: "edit", id: edit };
}

/** Loads the template or send compose starts from; a late answer for an older key is dropped. */
export function useComposeSource(key: ComposeSourceKey): { state: ComposeSourceState; reload: () => void } {
  const { notifications, templates } = useDashboardServices();
  // The last answer, with the load it answers: the state shown is derived from it and the key.
  const [answer, setAnswer] = useState<{ load: string; state: ComposeSourceState } | null>(null);
  const [attempt, setAttempt] = useState(0);
  const kind = key?.kind;
  const id = key?.id;
  const load = kind === undefined || id === undefined ? null : `${kind}:${id}:${attempt}`;

  useEffect(() => {
    if (kind === undefined || id === undefined || load === null) return;
    const current = { kind, id };
    let live = true;
    const loaded: Promise<ComposeSourceState> =
      kind === "template"
        ? templates.getTemplate(id).then((template) => ({ status: "ready", key: current, template }))
        : notifications.getNotification(id).then((send) => ({ status: "ready", key: current, send }));
    loaded.then(
      (state) => live && setAnswer({ load, state }),
      (error: unknown) => live && setAnswer({ load, state: { status: "error", key: current, error } }),
    );
    return () => {
      live = false;
    };
  }, [kind, id, load, notifications, templates]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const state: ComposeSourceState = key === null ? { status: "none" } : answer !== null && answer.load === load ? answer.state : { status: "loading", key };
  return { state, reload };
}
