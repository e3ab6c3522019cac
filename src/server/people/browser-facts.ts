import Bowser from "bowser";

/**
 * What segments test of a browser besides tags (`navegador = firefox`, `plataforma = android`,
 * `fuso = America/Sao_Paulo`), derived once at registration and stored lowercase.
 */
export interface BrowserFacts {
  readonly browser: string | null;
  readonly platform: string | null;
}

const BROWSER_NAMES: Readonly<Record<string, string>> = {
  "microsoft edge": "edge",
  "samsung internet for android": "samsung",
  "samsung internet": "samsung",
};

const PLATFORM_NAMES: Readonly<Record<string, string>> = {
  windows: "windows",
  macos: "macos",
  linux: "linux",
  android: "android",
  ios: "ios",
  "chrome os": "chromeos",
  chromeos: "chromeos",
};

function slug(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, "-");
}

/** Browser and platform of a User-Agent, lowercase (`chrome`, `samsung`, `macos`); null when unknown. */
export function browserFacts(userAgent: string | null): BrowserFacts {
  if (userAgent === null || userAgent === "") return { browser: null, platform: null };
  const parsed = Bowser.parse(userAgent);
  const browserName = parsed.browser.name?.toLowerCase();
  const osName = parsed.os.name?.toLowerCase();
  return {
    browser: browserName === undefined || browserName === "" ? null : (BROWSER_NAMES[browserName] ?? slug(browserName)),
    platform: osName === undefined || osName === "" ? null : (PLATFORM_NAMES[osName] ?? slug(osName)),
  };
}

/** An IANA time zone Intl knows, in its canonical spelling; anything else is null (ignored, not an error). */
export function validTimeZone(zone: string | undefined): string | null {
  if (zone === undefined || zone === "" || zone.length > 64) return null;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}
