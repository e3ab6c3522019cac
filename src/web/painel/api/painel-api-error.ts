/**
 * A refused or failed Painel API call. `status` 0 means no HTTP answer at all (network down,
 * server stopped); `message` is then empty and the page shows its own pt-BR text.
 */
export class PainelApiError extends Error {
  override readonly name = "PainelApiError";
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

export function isPainelApiError(error: unknown): error is PainelApiError {
  return error instanceof PainelApiError;
}
