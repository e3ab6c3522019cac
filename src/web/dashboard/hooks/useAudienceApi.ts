import { useState } from "react";
import { createAudienceApi } from "../api/audience-api.js";
import type { AudienceApi } from "../api/audience-api.js";

/** The audience client, beside the dashboard's main one (same origin and cookie); one per page, built once. */
export function useAudienceApi(): AudienceApi {
  const [api] = useState(createAudienceApi);
  return api;
}
