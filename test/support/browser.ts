/**
 * Launches the Debian Chromium through playwright-core (playwright's own browser download needs
 * internet access the test machines do not have). One browser per test file, a fresh context per
 * test.
 */
import { existsSync } from "node:fs";
import { chromium } from "playwright-core";
import type { Browser } from "playwright-core";

export const CHROMIUM_PATH = process.env.SINO_CHROMIUM_PATH ?? "/usr/bin/chromium";

/** The flags headless Chromium needs here: no sandbox as root, and nothing that calls Google (offline, those calls hang). */
const BASE_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface LaunchOptions {
  /** Extra command-line flags, e.g. `--host-resolver-rules=MAP sino.test 127.0.0.1`. */
  args?: string[];
}

export async function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium was not found at ${CHROMIUM_PATH}. The browser tests need it: install it with ` +
        "`apt-get update && apt-get install -y chromium` (or run `bash .ci/run`, which does), " +
        "or point SINO_CHROMIUM_PATH at a Chromium binary.",
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...BASE_ARGS, ...(options.args ?? [])] });
}
