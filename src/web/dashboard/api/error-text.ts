import type { TFunction } from "i18next";
import { isDashboardApiError } from "./dashboard-api-error.js";

/** What to tell the operator about a failed call: the server's pt-BR message when it gave one. */
export function errorText(t: TFunction, error: unknown): string {
  if (isDashboardApiError(error)) {
    if (error.isNetwork) return t("dashboard.errors.network");
    if (error.message !== "") return error.message;
    return t("dashboard.errors.status", { status: error.status });
  }
  return t("dashboard.errors.unexpected");
}
