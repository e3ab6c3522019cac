import { useMemo } from "react";
import { createAudienceApi } from "../api/audience-api.js";
import type { AudienceApi } from "../api/audience-api.js";
import { usePainelServices } from "../services.js";

/** The audience client, beside the Painel's main one (same origin and cookie, built once per Painel). */
export function useAudienceApi(): AudienceApi {
  const services = usePainelServices();
  return useMemo(() => createAudienceApi(), [services]);
}
