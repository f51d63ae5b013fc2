/** A field-level problem reported in the `errors` array of the error envelope. */
export interface FieldError {
  field: string;
  message: string;
  code: string;
}

/** Every failure the sandbox answers with; the server turns it into the error envelope. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly errorCode: string,
    message: string,
    readonly errors: FieldError[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function validationError(errors: FieldError[], message?: string): ApiError {
  const first = errors[0];
  const summary =
    message ??
    (errors.length === 1 && first
      ? `Invalid request: ${first.field ? `${first.field} ` : ''}${first.message}`
      : `Invalid request: ${errors.length} fields are invalid`);
  return new ApiError(400, 'VALIDATION_ERROR', summary, errors);
}

export function fieldError(field: string, message: string, code = 'invalid'): ApiError {
  return validationError([{ field, message, code }]);
}

export function notFound(what: string): ApiError {
  return new ApiError(404, 'NOT_FOUND', `${what} was not found`);
}

/** The envelope body of the spec, part 7. */
export interface ErrorEnvelope {
  message: string;
  statusCode: number;
  errorCode: string;
  errors: FieldError[];
  correlationId: string;
}

export function errorCodeForStatus(status: number): string {
  if (status === 429) return 'RATE_LIMITED';
  if (status >= 500) return 'INTERNAL_ERROR';
  if (status === 401) return 'UNAUTHORIZED';
  if (status === 403) return 'FORBIDDEN';
  if (status === 404) return 'NOT_FOUND';
  return 'INJECTED_FAULT';
}
