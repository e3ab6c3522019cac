import type { Notification } from "../store/notifications-repository.js";

export type ProgressListener = (send: Notification) => void;

/** In-process progress of notifications, per send id: what the Painel streams to the browser. */
export interface ProgressEvents {
  subscribe(id: number, listener: ProgressListener): () => void;
  publish(send: Notification): void;
}

export function createProgressEvents(onListenerError: (error: unknown) => void = () => undefined): ProgressEvents {
  const listeners = new Map<number, Set<ProgressListener>>();
  return {
    subscribe(id, listener) {
      const set = listeners.get(id) ?? new Set<ProgressListener>();
      set.add(listener);
      listeners.set(id, set);
      return () => {
        set.delete(listener);
        if (set.size === 0 && listeners.get(id) === set) listeners.delete(id);
      };
    },
    publish(send) {
      const set = listeners.get(send.id);
      if (set === undefined) return;
      // A failing listener (a closed browser stream) must not stop delivery or the other listeners.
      for (const listener of [...set]) {
        try {
          listener(send);
        } catch (error) {
          onListenerError(error);
        }
      }
    },
  };
}
