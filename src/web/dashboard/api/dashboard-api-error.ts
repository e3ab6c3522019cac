/**
 * A refused or failed dashboard API call. `status` 0 means no HTTP answer at all (network down,
 * server stopped); `message` is then empty and the page shows its own pt-BR text.
 */
export class DashboardApiError extends Error {
  override readonly name = "DashboardApiError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The request field the server blamed (`email`, `title`…), to show the error beside it. */
    readonly field?: string,
  ) {
    super(message);
  }

  get isNetwork(): boolean {
    return this.status === 0;
  }
}

export function isDashboardApiError(error: unknown): error is DashboardApiError {
  return error instanceof DashboardApiError;
}
