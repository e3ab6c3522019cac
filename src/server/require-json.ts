import type { FastifyReply, FastifyRequest } from "fastify";
import { apiError } from "./errors.js";

/**
 * `onRequest` hook for JSON routes: anything but `application/json` is refused with 415 before the
 * body is read. Fastify would otherwise parse `text/plain` into a string and the client would get
 * a confusing validation error instead of being told to send JSON.
 */
export async function requireJson(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const type = request.headers["content-type"];
  const essence = type?.split(";", 1)[0]?.trim().toLowerCase();
  if (essence !== "application/json") throw apiError("unsupported_media_type");
}
