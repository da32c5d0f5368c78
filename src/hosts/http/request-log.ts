/** One line per request on stderr: who, what, how it ended, how long. Never a payload, never a credential. */
export interface RequestLogEntry {
  request_id: string
  method: string
  route: string
  tool?: string
  tenant?: string
  agent?: string
  status: number
  error_code?: string
  duration_ms: number
}

export function requestLogLine(entry: RequestLogEntry, now: Date = new Date()): string {
  return `${JSON.stringify({ time: now.toISOString(), ...entry })}\n`
}
