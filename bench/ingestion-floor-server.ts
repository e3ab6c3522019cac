/**
 * `node --import tsx bench/ingestion-floor-server.ts` — the bare Fastify floor of the ingestion
 * bench: the same framework, the same JSON body parsing and body limit as Sino's public write
 * routes, and nothing else (no validation, no database, no logging). Prints its URL on stdout,
 * then serves until killed. What Sino's registrations/s are measured against.
 */
import Fastify from "fastify";

const app = Fastify({ logger: false, bodyLimit: 160 * 1024 });
// An answer of about the size of Sino's 201 (a presented subscription).
const ANSWER = { subscription: { id: "1", createdAt: new Date(0).toISOString(), updatedAt: new Date(0).toISOString(), channels: [], userId: null } };
app.post("/floor", async (_request, reply) => reply.code(201).send(ANSWER));
const address = await app.listen({ port: 0, host: "127.0.0.1" });
console.log(address);
process.once("SIGTERM", () => void app.close().then(() => process.exit(0)));
