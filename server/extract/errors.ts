/** A document that cannot be read, with the status and the message the client gets. */
export class ExtractionError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Seconds after which trying again may work (503 busy: the Retry-After header). */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}
