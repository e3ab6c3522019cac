import { createContext, useContext } from "react";
import type { SinoClient } from "../../../src/client/index.js";

/** The embed core's client for the tree under `<SinoProvider>`; null on the server (no window). */
export const SinoContext = createContext<SinoClient | null | undefined>(undefined);

export function useSinoClient(): SinoClient | null {
  const client = useContext(SinoContext);
  if (client === undefined) {
    throw new Error("useSino() and <SinoBell /> must be inside <SinoProvider sinoUrl=…>");
  }
  return client;
}
