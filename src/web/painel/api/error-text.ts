import type { TFunction } from "i18next";
import { isPainelApiError } from "./painel-api-error.js";

/** What to tell the operator about a failed call: the server's pt-BR message when it gave one. */
export function errorText(t: TFunction, error: unknown): string {
  if (isPainelApiError(error)) {
    if (error.isNetwork) return t("painel.errors.network");
    if (error.message !== "") return error.message;
    return t("painel.errors.status", { status: error.status });
  }
  return t("painel.errors.unexpected");
}
