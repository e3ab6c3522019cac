import { useMemo } from "react";
import { createSendsApi } from "../api/sends-api.js";
import type { SendsApi } from "../api/sends-api.js";
import { usePainelServices } from "../services.js";

/** The sends client, beside the Painel's main one (same origin and cookie, built once per Painel). */
export function useSendsApi(): SendsApi {
  const services = usePainelServices();
  return useMemo(() => createSendsApi(), [services]);
}
