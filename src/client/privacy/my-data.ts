import type { ErasureCountsPresentation, MyDataResponse } from "../../shared/api/privacy.js";
import { API_ROUTES } from "../../shared/api/routes.js";
import type { PushSubscriptionJson } from "../../shared/api/subscriptions.js";
import { createJsonRequest } from "../http/json-request.js";
import { ApiRequestError, toApiRequestError } from "../messaging/api-client.js";
import embed from "../../shared/i18n/pt-BR/embed.json" with { type: "json" };

/** What Sino keeps about this browser ("Meus dados"), as the server answers it. */
export type MyData = MyDataResponse;
/** How many rows "Apagar meus dados" removed, per kind. */
export type ErasedData = ErasureCountsPresentation;

export interface MyDataDeps {
  readonly baseUrl: string;
  readonly fetch?: typeof fetch | undefined;
  /** The current subscription (null: notifications are off, nothing is kept). */
  readonly token: () => PushSubscriptionJson | null;
}

const NOT_SUBSCRIBED = new ApiRequestError(0, "not_subscribed", embed.clientErrors.myDataNotSubscribed);

/**
 * The subscriber's rights (LGPD Art. 18) as calls with proof of possession (endpoint + auth
 * secret), like the other preference routes. `erase` only talks to the server: the client then
 * unsubscribes the browser (sino-client.ts).
 */
export function createMyDataApi(deps: MyDataDeps) {
  const { json } = createJsonRequest({ baseUrl: deps.baseUrl, fetch: deps.fetch, toError: toApiRequestError });
  const proof = () => {
    const token = deps.token();
    if (token === null) throw NOT_SUBSCRIBED;
    return { endpoint: token.endpoint, auth: token.keys.auth };
  };
  return {
    exportMyData: (): Promise<MyData> => json<MyData>("POST", API_ROUTES.subscriptionData, proof()),
    async eraseMyData(): Promise<ErasedData> {
      return (await json<{ erased: ErasedData }>("DELETE", API_ROUTES.subscriptionData, proof())).erased;
    },
  };
}

/** "Meus dados" as a file name: `sino-meus-dados-2026-11-26.json`. */
export function myDataFileName(data: MyData): string {
  return `sino-meus-dados-${data.exportedAt.slice(0, 10)}.json`;
}

/**
 * Offers the export as a JSON download in the page (every bell panel does the same): a Blob URL
 * on a temporary link, revoked once clicked.
 */
export function downloadMyData(page: Window, data: MyData): void {
  const win = page as Window & typeof globalThis;
  const doc = win.document;
  const url = win.URL.createObjectURL(new win.Blob([`${JSON.stringify(data, null, 2)}\n`], { type: "application/json" }));
  const link = doc.createElement("a");
  link.href = url;
  link.download = myDataFileName(data);
  link.hidden = true;
  doc.body.append(link);
  link.click();
  link.remove();
  win.setTimeout(() => win.URL.revokeObjectURL(url), 0);
}
