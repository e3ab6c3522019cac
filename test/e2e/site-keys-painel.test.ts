/**
 * Painel → Sites → a site's VAPID key (issue 20) in Chromium against the real server: an admin sees
 * the default key, generates one, imports the previous sender's key by pasting it and by choosing
 * its file (a bad one refused with its pt-BR message, nothing changed), reads what happens to the
 * subscribers it has; only public keys are ever on the page; axe-clean.
 */
import { createECDH, generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { API_ROUTES } from "../../src/shared/api/routes.js";
import type { SitesResponse } from "../../src/shared/api/sites.js";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import { aBrowserSubscription } from "../support/subscriptions.js";
import { useAdminOnFakePush } from "./support/admin-on-fake-push.js";
import { adminCall } from "./support/audience.js";
import { axeViolations } from "./support/axe.js";

const K = ptBR["site-keys"].painel;
const SITE = "https://chaves.exemplo.com.br";

const run = useAdminOnFakePush();

describe("a site's VAPID key in the Painel", () => {
  it("an admin generates, imports (pasted and from a file) and sees the old key kept for its subscriptions", async () => {
    await adminCall(run.admin.request, run.server, "POST", API_ROUTES.sites, { origin: SITE });
    const { sites } = await adminCall<SitesResponse>(run.admin.request, run.server, "GET", API_ROUTES.sites);
    const site = sites.find((s) => s.origin === SITE)!;
    // Two browsers subscribed on the site with Sino's default key.
    for (let i = 0; i < 2; i++) {
      const res = await fetch(run.server.url + API_ROUTES.subscriptions, {
        method: "POST",
        headers: { origin: SITE, "content-type": "application/json" },
        body: JSON.stringify({ ...aBrowserSubscription(), site: site.key }),
      });
      expect(res.status).toBe(201);
    }
    const page = await run.admin.newPage();
    page.setDefaultTimeout(15_000);
    try {
      await page.goto(`${run.server.baseUrl}/painel/sites`);
      await page.getByRole("button", { name: K.buttonNamed.replace("{{origin}}", SITE) }).click();
      const dialog = page.getByRole("dialog", { name: K.sectionNamed.replace("{{origin}}", SITE) });
      await dialog.getByTestId("site-key-current").waitFor();
      expect(await dialog.getByTestId("site-key-current").textContent()).toContain(K.source.default);
      expect(await dialog.getByTestId("site-key-what-happens").textContent()).toBe(K.whatHappensText);
      expect(await axeViolations(page)).toEqual([]);

      // Generate: the two subscriptions stay on the default key, which is listed as still in use.
      await dialog.getByRole("radio", { name: K.mode.generate }).check();
      await dialog.getByRole("button", { name: K.confirm }).click();
      await dialog.getByTestId("site-key-done").filter({ hasText: K.done.replace("{{count}}", "2") }).waitFor();
      expect(await dialog.getByTestId("site-key-current").textContent()).toContain(K.source.generated);
      expect(await dialog.getByTestId("site-key-previous").textContent()).toContain(K.source.default);
      expect(await axeViolations(page)).toEqual([]);

      // Import, pasted: a public key alone is refused with its message, nothing changes.
      const vendor = createECDH("prime256v1");
      vendor.generateKeys();
      await dialog.getByRole("radio", { name: K.mode.import }).check();
      const field = dialog.getByRole("textbox", { name: K.keyField });
      await field.fill(vendor.getPublicKey().toString("base64url"));
      await dialog.getByRole("button", { name: K.confirm }).click();
      await dialog.getByTestId("site-key-error").filter({ hasText: ptBR.errors.vapid_key_public_only }).waitFor();
      expect(await dialog.getByTestId("site-key-current").textContent()).toContain(K.source.generated);
      expect(await axeViolations(page)).toEqual([]);

      const d = vendor.getPrivateKey();
      const privateKey = Buffer.concat([Buffer.alloc(32 - d.length), d]).toString("base64url");
      const publicKey = vendor.getPublicKey().toString("base64url");
      await field.fill(JSON.stringify({ publicKey, privateKey }));
      await dialog.getByRole("button", { name: K.confirm }).click();
      await dialog.getByTestId("site-key-current").filter({ hasText: publicKey }).waitFor();
      expect(await dialog.getByTestId("site-key-current").textContent()).toContain(K.source.imported);
      expect(await page.content()).not.toContain(privateKey);

      // Import from a file (a PEM).
      const pem = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
      const jwk = pem.publicKey.export({ format: "jwk" });
      const point = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, "base64url"), Buffer.from(jwk.y!, "base64url")]).toString("base64url");
      await dialog.getByRole("radio", { name: K.mode.import }).check();
      await dialog.locator('input[type="file"]').setInputFiles({ name: "vapid.pem", mimeType: "text/plain", buffer: Buffer.from(pem.privateKey.export({ format: "pem", type: "sec1" }) as string) });
      await dialog.getByText(K.fileChosen.replace("{{name}}", "vapid.pem")).waitFor();
      await dialog.getByRole("button", { name: K.confirm }).click();
      await dialog.getByTestId("site-key-current").filter({ hasText: point }).waitFor();
      expect(await page.content()).not.toContain((pem.privateKey.export({ format: "jwk" }) as { d: string }).d);
      expect(await axeViolations(page)).toEqual([]);
      expect((await adminCall<{ vapidPublicKey: string }>(run.admin.request, run.server, "GET", `${API_ROUTES.config}?site=${site.key}`)).vapidPublicKey).toBe(point);
    } finally {
      await page.close();
    }
  }, 120_000);
});
