import { useSino } from "@sino/react";
import type { SinoToken, UnavailableReason } from "@sino/react";
import { useAppSelector } from "./useAppStore.js";

export interface ThisBrowserPush {
  /** This browser's device token, from the app's store (where `setToken` put it); null while off. */
  token: SinoToken | null;
  /** Whether this browser can have a bell at all: `checking`, `available`, or why not. */
  availability: "checking" | "available" | UnavailableReason;
}

/** What the Painel needs of this browser's bell (the compose page's test send to oneself). */
export function useThisBrowserPush(): ThisBrowserPush {
  const token = useAppSelector((state) => state.push.token);
  const { state, hiddenReason } = useSino();
  const availability = state === "checking" ? "checking" : state === "hidden" ? (hiddenReason ?? "unsupported") : "available";
  return { token, availability };
}
