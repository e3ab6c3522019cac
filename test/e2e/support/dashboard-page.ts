/**
 * Helpers for the dashboard's browser tests: operators made through the real API, sign-in shared
 * with the page's cookie jar, and locators by role and pt-BR label (what a person sees).
 */
import type { BrowserContext, Locator, Page } from "playwright-core";
import { API_ROUTES } from "../../../src/shared/api/routes.js";
import type { User } from "../../../src/shared/api/users.js";

export interface Operator {
  name: string;
  email: string;
  password: string;
}

export const ADMIN: Operator = { name: "Ana Administradora", email: "ana@example.com", password: "senha-longa-da-ana" };
export const PUBLISHER: Operator = { name: "Paulo Publicador", email: "paulo@example.com", password: "senha-longa-do-paulo" };

/** The first admin, through POST /setup (no cookie is kept: the browser signs in on its own). */
export async function createFirstAdmin(serverUrl: string, admin: Operator = ADMIN): Promise<User> {
  const response = await fetch(serverUrl + API_ROUTES.setup, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(admin),
  });
  if (response.status !== 201) throw new Error(`POST /setup answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { user: User }).user;
}

/** Signs the browser context in through the API (cookie lands in the context's jar). */
export async function signInContext(context: BrowserContext, baseUrl: string, operator: Operator): Promise<void> {
  const response = await context.request.post(baseUrl + API_ROUTES.session, {
    data: { email: operator.email, password: operator.password },
    headers: { origin: baseUrl },
  });
  if (response.status() !== 200) throw new Error(`POST /session answered ${response.status()}: ${await response.text()}`);
}

/** A text or password field by its visible label (MUI links label and input; the "*" is aria-hidden). */
export function field(page: Page | Locator, label: string): Locator {
  return page.getByRole("textbox", { name: label, exact: true });
}

/** The helper text MUI shows under a field (its error, when the field is invalid). */
export async function helperTextOf(input: Locator): Promise<string> {
  const id = await input.getAttribute("aria-describedby");
  if (!id) return "";
  return (await input.page().locator(`[id="${id.split(" ")[0]}"]`).textContent()) ?? "";
}

/**
 * The navigation's visible links to the Painel's pages (the permanent drawer on wide screens); the
 * links that open elsewhere in a new tab (public page, API docs) are not among them.
 */
export async function navLabels(page: Page): Promise<string[]> {
  const nav = page.getByRole("navigation");
  return (await nav.locator('a:visible:not([target="_blank"])').allTextContents()).map((text) => text.trim());
}
