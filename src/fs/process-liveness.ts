import { readFileSync } from 'node:fs'
import { isNodeError } from '../errors.js'

/** Whether a process with this pid runs on this machine (EPERM: it runs as another user). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return isNodeError(error) && error.code === 'EPERM'
  }
}

/** Clock ticks per second of /proc/<pid>/stat times: USER_HZ, 100 on every Linux mk runs on. */
const ticksPerSecond = 100

let bootTimeMs: number | undefined | null = null

function bootTime(): number | undefined {
  if (bootTimeMs === null) {
    try {
      const line = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))
      bootTimeMs = line === null ? undefined : Number(line[1]) * 1000
    } catch {
      bootTimeMs = undefined
    }
  }
  return bootTimeMs
}

/**
 * When the process with this pid started (ms since the epoch, to about a second), where the
 * system says (Linux /proc); undefined elsewhere or when no such process runs.
 */
export function processStartedAt(pid: number): number | undefined {
  const boot = bootTime()
  if (boot === undefined) return undefined
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Field 22, counted after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const ticks = Number(fields[19])
    return Number.isFinite(ticks) ? boot + (ticks / ticksPerSecond) * 1000 : undefined
  } catch {
    return undefined
  }
}
