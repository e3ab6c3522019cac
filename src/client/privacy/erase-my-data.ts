import type { PushSubscriptionJson } from "../../shared/api/subscriptions.js";
import type { DisableResult } from "../messaging/push-messaging.js";
import type { SinoSnapshot, SinoStatus } from "../sino-client.js";
import type { ErasedData, createMyDataApi } from "./my-data.js";

export interface EraseMyDataDeps {
  readonly myData: ReturnType<typeof createMyDataApi>;
  readonly start: () => Promise<SinoSnapshot>;
  /** The client's action runner: busy while it lasts, its outcome applied in one change. */
  readonly act: (action: () => Promise<Partial<SinoSnapshot>>) => Promise<SinoSnapshot>;
  readonly getSnapshot: () => SinoSnapshot;
  readonly disable: (token: PushSubscriptionJson | null) => Promise<DisableResult>;
  /** Forgets the person remembered in this browser (the next subscription starts anonymous). */
  readonly forget: () => void;
  readonly offStatus: () => SinoStatus;
  readonly logger: Pick<Console, "error">;
}

/**
 * "Apagar meus dados": the server erases first (with proof, while the browser still holds the
 * subscription); then the browser unsubscribes, whose server call finds nothing left (a 404 counts
 * as done), and the bell shows off. A refusal (wrong proof, server down) changes nothing and
 * rejects with the `ApiRequestError`.
 */
export function eraseMyDataThenUnsubscribe(deps: EraseMyDataDeps): () => Promise<ErasedData> {
  return async () => {
    await deps.start();
    const token = deps.getSnapshot().token;
    let erased: ErasedData | undefined;
    let failure: unknown;
    await deps.act(async () => {
      try {
        erased = await deps.myData.eraseMyData();
      } catch (error) {
        failure = error;
        return {};
      }
      deps.forget();
      try {
        await deps.disable(token);
      } catch (error) {
        // The browser kept a push subscription the server no longer knows: nothing is sent to it.
        deps.logger.error("Could not unsubscribe the browser after erasing its data", error);
      }
      return { status: deps.offStatus(), token: null, channels: null, notice: null };
    });
    if (erased === undefined) throw failure;
    return erased;
  };
}
