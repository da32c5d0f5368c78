/** One line per request on stderr: who, what, how it ended, how long. Never a payload, never a credential. */
export interface RequestLogEntry {
  request_id: string
  method: string
  route: string
  tool?: string
  tenant?: string
  agent?: string
  /** An admin's call that named another agent or team (field: value): acting for others is audited here. */
  acting_for?: Record<string, string>
  status: number
  error_code?: string
  duration_ms: number
  /** Of duration_ms: how long its tool calls waited for a free thread, and how long the threads took to answer them. */
  queue_ms?: number
  thread_ms?: number
}

export function requestLogLine(entry: RequestLogEntry, now: Date = new Date()): string {
  return `${JSON.stringify({ time: now.toISOString(), ...entry })}\n`
}
