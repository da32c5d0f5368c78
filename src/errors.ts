export const errorCodes = [
  'INVALID_INPUT',
  'NOT_FOUND',
  'CONFLICT',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'TIMEOUT',
  'RATE_LIMITED',
  'PROVIDER_ERROR',
  'INTERNAL_ERROR',
  'NO_TOOLS_ALLOWED',
  'UNAVAILABLE',
] as const

export type ErrorCode = (typeof errorCodes)[number]

/** The one error shape every caller sees: CLI `--json`, MCP, programmatic. */
export interface ErrorObject {
  success: false
  errorCode: ErrorCode
  message: string
  details?: Record<string, unknown>
  retryable: boolean
}

const retryableByDefault: ReadonlySet<ErrorCode> = new Set(['TIMEOUT', 'RATE_LIMITED', 'PROVIDER_ERROR', 'UNAVAILABLE'])

/** An expected failure with a code. Anything else thrown is an INTERNAL_ERROR. */
export class MkError extends Error {
  readonly code: ErrorCode
  readonly details: Record<string, unknown> | undefined
  readonly retryable: boolean

  constructor(code: ErrorCode, message: string, options: { details?: Record<string, unknown>; retryable?: boolean; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'MkError'
    this.code = code
    this.details = options.details
    this.retryable = options.retryable ?? retryableByDefault.has(code)
  }
}

export function toErrorObject(error: unknown): ErrorObject {
  if (error instanceof MkError) {
    return {
      success: false,
      errorCode: error.code,
      message: error.message,
      ...(error.details === undefined ? {} : { details: error.details }),
      retryable: error.retryable,
    }
  }
  const message = error instanceof Error ? error.message : String(error)
  return { success: false, errorCode: 'INTERNAL_ERROR', message, retryable: false }
}

export function isNodeError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && 'code' in error
}
