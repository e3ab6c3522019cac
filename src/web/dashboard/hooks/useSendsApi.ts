import { useMemo } from "react";
import { createSendsApi } from "../api/sends-api.js";
import type { SendsApi } from "../api/sends-api.js";

/** The sends client, beside the dashboard's main one (same origin and cookie, built once per mount). */
export function useSendsApi(): SendsApi {
  return useMemo(() => createSendsApi(), []);
}
