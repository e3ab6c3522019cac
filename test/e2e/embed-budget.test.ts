/**
 * The embed's byte budget (issue 9): everything a visitor downloads to show the bell on a site,
 * gzipped, stays within 25 KB. Measured on what Chromium really loads for a page with the snippet
 * (every response of the page and of the service worker it registers, except the site's own HTML),
 * each gzipped at level 9, and on the build output itself.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { publicPageFiles } from "../support/page-files.js";
import { useRegisteredEmbedSite } from "./support/registered-embed-site.js";
import { settledEmbedBell } from "./support/embed-page.js";
import { installPushStub, makeSubscriptionKeys, testEndpoint } from "./support/push-stub.js";

const BUDGET_BYTES = 25 * 1024;

const gzipped = (bytes: Buffer | string): number => gzipSync(bytes, { level: 9 }).length;

const embed = useRegisteredEmbedSite();

describe("the embed's byte budget", () => {
  it("is at most 25 KB gzipped for everything the page loads to show the bell (measured in Chromium)", async () => {
    const context = await embed.browser.newContext();
    try {
      await context.grantPermissions(["notifications"], { origin: embed.site.origin });
      await installPushStub(context, { endpoint: testEndpoint(), keys: makeSubscriptionKeys() });
      const loaded = new Map<string, Promise<Buffer>>();
      // Context-level: the page's requests and the service worker's (its script and what it imports).
      context.on("response", (response) => {
        const url = response.url();
        if (url === embed.site.pageUrl() || response.request().resourceType() === "document") return;
        loaded.set(url, response.body().catch(() => Buffer.alloc(0)));
      });
      const page = await context.newPage();
      await page.goto(embed.site.pageUrl());
      await settledEmbedBell(page, "off");
      // The worker is installed (its scripts fetched) once `ready` resolves.
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready;
      });

      const sizes = new Map<string, number>();
      for (const [url, body] of loaded) sizes.set(new URL(url).pathname + new URL(url).search, gzipped(await body));
      const total = [...sizes.values()].reduce((sum, n) => sum + n, 0);
      console.log(`embed budget: ${total} bytes gzipped of ${BUDGET_BYTES}`, Object.fromEntries(sizes));

      const paths = [...sizes.keys()];
      expect(paths).toContain("/embed/sino.js");
      // Nothing of the web app (React, MUI) comes along.
      expect(paths.filter((path) => path.startsWith("/assets/"))).toEqual([]);
      expect(total).toBeGreaterThan(0);
      expect(total).toBeLessThanOrEqual(BUDGET_BYTES);
    } finally {
      await context.close();
    }
  });

  it("is at most 25 KB gzipped for the built sino.js and sw.js together", () => {
    const files = ["dist/web/embed/sino.js", "dist/web/embed/sw.js"].map((file) => readFileSync(resolve(file)));
    const total = files.reduce((sum, bytes) => sum + gzipped(bytes), 0);
    console.log(`embed build: sino.js + sw.js = ${total} bytes gzipped`);
    expect(total).toBeLessThanOrEqual(BUDGET_BYTES);
    // No framework or validation library slipped into the script-tag path.
    const sino = files[0]!.toString("utf8");
    expect(sino).not.toMatch(/react\.element|__reactFiber|MuiButtonBase|i18next::|ZodError/);
  });
});

describe("what Sino's own public page loads", () => {
  it("leaves zod to the Painel: no file the home page loads carries it (the API schemas stay server and Painel side)", () => {
    const files = publicPageFiles("dist/web");
    expect(files.length).toBeGreaterThan(0);
    const carrying = files.filter((file) => /ZodError|_zod/.test(readFileSync(resolve("dist/web", file), "utf8")));
    expect(carrying).toEqual([]);
  });

  it("has a service worker (/sw.js) as light as the embed's: no i18next or other framework, under 10 KB gzipped", () => {
    const own = readFileSync(resolve("dist/web/sw.js"));
    const embedded = readFileSync(resolve("dist/web/embed/sw.js"));
    console.log(`own sw.js: ${gzipped(own)} bytes gzipped (embed sw.js ${gzipped(embedded)})`);
    expect(own.toString("utf8")).not.toMatch(/i18next|react\.element|ZodError/);
    expect(gzipped(own)).toBeLessThanOrEqual(10 * 1024);
  });
});
