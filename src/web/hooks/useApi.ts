import { createContext, useContext } from "react";
import type { ApiClient } from "../../client/index.js";

/** The public API client, built once in main.tsx and handed to the pages that read from it. */
export const ApiContext = createContext<ApiClient | null>(null);

export function useApi(): ApiClient {
  const api = useContext(ApiContext);
  if (!api) throw new Error("useApi outside ApiContext");
  return api;
}
