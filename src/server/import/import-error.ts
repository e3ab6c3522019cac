import type { ErrorCode } from "../../shared/errors.js";

/**
 * A refusal of the whole import (not of one row): an unknown format, a CSV header without the key
 * columns, a file over the size limit. The route answers it as an API error, the CLI as a line.
 */
export class ImportError extends Error {
  override readonly name = "ImportError";
  constructor(readonly code: ErrorCode) {
    super(code);
  }
}
