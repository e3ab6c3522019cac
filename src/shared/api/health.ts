import { z } from "zod";
import { ERROR_CODES } from "../errors.js";

/**
 * Probes for load balancers, systemd and Kubernetes, outside /api/v1 (they are about the process,
 * not the API): no authentication, no rate limit, successful probes not logged.
 */
export const HEALTH_ROUTES = {
  /** GET: the process is alive and answers HTTP (liveness). Always 200 while it does. */
  healthz: "/healthz",
  /** GET: this process can do its work: database reachable, migrations applied, loops turning. */
  readyz: "/readyz",
} as const;

export const healthSchema = z.object({ status: z.literal("ok") });
export type Health = z.infer<typeof healthSchema>;

const checkStateSchema = z.enum(["ok", "unavailable", "unknown"]);

export const loopStatusSchema = z.object({
  /** `lanes`, `scheduler`, `hygiene`, `segment-sizes`, `webhooks`: the loops this process runs. */
  component: z.string(),
  alive: z.boolean(),
  /** Milliseconds since the loop last came round. */
  ageMs: z.number().int().nonnegative(),
});

export const readinessSchema = z.object({
  status: z.enum(["ok", "unavailable"]),
  checks: z.object({
    database: checkStateSchema,
    /** `unknown` when the database could not be asked. */
    migrations: checkStateSchema,
    /** Empty in a process that runs no background loop (SINO_WORKER_EMBEDDED=false). */
    loops: z.array(loopStatusSchema),
  }),
  /** Why not ready: the first failed check's stable code and its pt-BR message. */
  error: z.object({ code: z.enum(ERROR_CODES as [string, ...string[]]), message: z.string() }).optional(),
});
export type Readiness = z.infer<typeof readinessSchema>;
