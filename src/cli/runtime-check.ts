import cli from "../shared/i18n/pt-BR/cli.json" with { type: "json" };

/** The Node.js major version Sino runs on (the `node` dependency `npm ci` installs). */
export const REQUIRED_NODE_MAJOR = 24;

/**
 * The pt-BR refusal for a Node.js older than Sino runs on, or null when `version` will do.
 * bin/sino.js asks before loading anything else. The requirement lives here and not in
 * package.json's `engines`: npm checks `engines` against the Node running npm itself (older,
 * often, since the project brings its own Node 24), on every `npx sino` too, and printed
 * EBADENGINE warnings for a CLI that then ran on Node 24 anyway.
 */
export function nodeVersionProblem(version: string): string | null {
  const major = Number(version.replace(/^v/, "").split(".")[0]);
  if (Number.isInteger(major) && major >= REQUIRED_NODE_MAJOR) return null;
  const template: string = cli.nodeTooOld;
  return template.split("{{required}}").join(String(REQUIRED_NODE_MAJOR)).split("{{version}}").join(version);
}
