import type { ErrorObject } from '../../errors.js'
import { textForTenant, type TenantPlaces } from '../../fs/tenant-text.js'

function scrubbed(value: unknown, places: TenantPlaces | undefined): unknown {
  if (typeof value === 'string') return textForTenant(value, places)
  if (Array.isArray(value)) return value.map((item) => scrubbed(item, places))
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrubbed(item, places)]))
  return value
}

/**
 * The error a remote caller is sent: message and details with the server's absolute paths replaced
 * (workspace-relative, `$MK_HOME/...`, or a placeholder; see textForTenant). When that changed
 * anything, the error as it was goes to the server's log under the request id, for the operator.
 */
export function errorForTenant(error: ErrorObject, places: TenantPlaces | undefined, requestId: string, log: (line: string) => void): ErrorObject {
  const shown = scrubbed(error, places) as ErrorObject
  if (JSON.stringify(shown) !== JSON.stringify(error)) {
    log(
      `${JSON.stringify({ time: new Date().toISOString(), request_id: requestId, event: 'error_detail', error_code: error.errorCode, message: error.message, details: error.details })}\n`,
    )
  }
  return shown
}

/** Warnings a remote caller is sent, with the same paths replaced. */
export function warningsForTenant(warnings: readonly string[], places: TenantPlaces | undefined): string[] {
  return warnings.map((warning) => textForTenant(warning, places))
}
