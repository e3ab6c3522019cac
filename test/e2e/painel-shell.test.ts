/**
 * The Painel is split per page (issue 22): its shell (DashboardApp and what it imports statically:
 * the layout, the navigation, the session) carries no page, so an operator downloads a page's code
 * when they open it, and the charts come only with the pages that draw them (Visão geral, a
 * segment's page). Read from the build output; bench/painel-bytes.ts measures what Chromium loads.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { painelShellFiles } from "../support/page-files.js";
import { requireBuiltWebApp } from "./support/built-web-app.js";

const WEB_DIR = "dist/web";
/** MUI X Charts' class names, which stay readable in the minified build. */
const CHARTS = /MuiChartsSurface/;
const PAGES = [
  "SetupPage",
  "SignInPage",
  "ChangePasswordPage",
  "OverviewPage",
  "ComposePage",
  "HistoryPage",
  "NotificationPage",
  "ChannelsPage",
  "SitesPage",
  "TemplatesPage",
  "SubscribersPage",
  "PeoplePage",
  "PersonPage",
  "UsersPage",
  "TokensPage",
  "WebhooksPage",
  "SegmentsPage",
  "SegmentPage",
  "OrganisationPage",
];

const read = (file: string): string => readFileSync(join(WEB_DIR, file), "utf8");

beforeAll(() => {
  requireBuiltWebApp();
});

describe("the Painel's shell", () => {
  it("loads each page as a chunk of its own, behind import()", () => {
    const shell = painelShellFiles(WEB_DIR);
    // Vite names a lazy chunk after its module: `import("./ComposePage-<hash>.js")`.
    const lazy = new Set([...shell.map(read).join("\n").matchAll(/import\("\.\/(\w+)-[\w-]+\.js"\)/g)].map((m) => m[1]));
    expect(PAGES.filter((page) => !lazy.has(page))).toEqual([]);
    expect(shell.filter((file) => PAGES.some((page) => file.startsWith(`assets/${page}-`)))).toEqual([]);
  });

  it("leaves the charts to the pages that draw them", () => {
    const carrying = readdirSync(join(WEB_DIR, "assets")).filter((file) => file.endsWith(".js") && CHARTS.test(read(`assets/${file}`)));
    expect(carrying.length).toBeGreaterThan(0);
    const shell = new Set(painelShellFiles(WEB_DIR));
    expect(carrying.filter((file) => shell.has(`assets/${file}`))).toEqual([]);
  });
});
