import { writeFileSync } from "node:fs";
import { startTestServer } from "./test/support/server.js";
const s = await startTestServer({ env: { SINO_WORKER_EMBEDDED: "false", SINO_LOG_LEVEL: "error" } });
const doc = await (await fetch(`${s.url}/api/v1/openapi.json`)).json();
writeFileSync("/tmp/h4/openapi.json", JSON.stringify(doc, null, 2));
await s.close();
