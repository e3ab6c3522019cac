import type { Page } from "playwright-core";

/** Everything the page writes to its console, as text (`console.error("a", err)` → "a Error: …"). */
export function recordConsole(page: Page): string[] {
  const messages: string[] = [];
  page.on("console", (message) => messages.push(message.text()));
  return messages;
}

export function countStartingWith(messages: string[], text: string): number {
  return messages.filter((message) => message === text || message.startsWith(`${text} `)).length;
}
