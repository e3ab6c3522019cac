import { useCallback, useEffect, useState } from "react";

export type Resource<T> = { status: "loading" } | { status: "error"; error: unknown } | { status: "ready"; data: T };

/**
 * Loads something for a page and keeps its loading / error / ready state. `load` must be stable
 * (useCallback). A late answer to an older load never overwrites a newer one.
 */
export function useResource<T>(load: () => Promise<T>): {
  resource: Resource<T>;
  reload: () => void;
  /** Replace the data after a change the page made itself (no reload flash). */
  update: (change: (data: T) => T) => void;
} {
  const [resource, setResource] = useState<Resource<T>>({ status: "loading" });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    load().then(
      (data) => current && setResource({ status: "ready", data }),
      (error: unknown) => current && setResource({ status: "error", error }),
    );
    return () => {
      current = false;
    };
  }, [load, attempt]);

  const reload = useCallback(() => {
    setResource({ status: "loading" });
    setAttempt((n) => n + 1);
  }, []);

  const update = useCallback((change: (data: T) => T) => {
    setResource((previous) => (previous.status === "ready" ? { status: "ready", data: change(previous.data) } : previous));
  }, []);

  return { resource, reload, update };
}
