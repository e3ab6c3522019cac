import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The committed test CA and server certificate (see test/fixtures/tls/README.md). */
export interface TestTls {
  /** PEM of the CA that signed `cert`: what a client must trust to reach the fake services. */
  readonly ca: string;
  readonly cert: string;
  readonly key: string;
  /** Path of `ca` on disk, e.g. for `NODE_EXTRA_CA_CERTS` in a child process. */
  readonly caPath: string;
}

const dir = new URL("../../fixtures/tls/", import.meta.url);

export function loadTestTls(): TestTls {
  const caPath = fileURLToPath(new URL("ca.pem", dir));
  return {
    ca: readFileSync(caPath, "utf8"),
    cert: readFileSync(new URL("server.pem", dir), "utf8"),
    key: readFileSync(new URL("server-key.pem", dir), "utf8"),
    caPath,
  };
}
