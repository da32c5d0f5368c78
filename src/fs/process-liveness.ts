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

/**
 * The command line of the process with this pid (Linux /proc), arguments joined by spaces and cut
 * to 200 characters; undefined elsewhere or when no such process runs.
 */
export function processCommand(pid: number): string | undefined {
  try {
    const words = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .filter((word) => word !== '')
    return words.length === 0 ? undefined : words.join(' ').slice(0, 200)
  } catch {
    return undefined
  }
}

/**
 * Whether a command line can be an mk process: mk runs in Node (`node …/bin/run.js`, `mk …` through
 * its shebang). A process running something else (`sleep 300`, `sshd`) holds no mk lock.
 */
export function mayRunMk(command: string): boolean {
  const program = (command.split(' ')[0] ?? '').split('/').pop() ?? ''
  return /^(?:node(?:js)?[\d.]*|mk|npx|npm|tsx|bun|deno)(?:\.exe)?$/i.test(program) || /\bmk\b|run\.js/.test(command)
}
