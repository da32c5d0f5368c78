import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export const mkBin = fileURLToPath(new URL('../../bin/run.js', import.meta.url))

export interface MkRun {
  stdout: string
  stderr: string
  exitCode: number
}

export interface MkRunOptions {
  cwd: string
  env?: Record<string, string | undefined>
  input?: string
  /** Run as this user id (tests running as root use it to see what an ordinary user sees). */
  uid?: number
}

/** The environment a spawned mk gets: this one, without colour and without settings that would change what a test sees, plus the given values (undefined removes one). */
export function mkEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', MK_LOG: undefined, MK_READ_ONLY: undefined, READ_ONLY: undefined, ...extra }
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined))
}

/** Spawn the built `mk` binary (run `npm run build` first) as a user would. */
export function runMk(args: readonly string[], options: MkRunOptions): Promise<MkRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [mkBin, ...args], {
      cwd: options.cwd,
      env: mkEnv(options.env),
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.uid }),
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({ stdout, stderr, exitCode: code ?? -1 }))
    child.stdin.end(options.input ?? '')
  })
}

/** Parse stdout of a `--json` run, failing with the whole output when it is not JSON. */
export function parseJson<T = Record<string, unknown>>(run: MkRun): T {
  try {
    return JSON.parse(run.stdout) as T
  } catch {
    throw new Error(`stdout is not JSON (exit ${run.exitCode}):\n${run.stdout}\nstderr:\n${run.stderr}`)
  }
}

/** One line of human-readable error, never a stack trace. */
export function expectCleanError(run: MkRun): string {
  if (run.exitCode !== 2) throw new Error(`expected exit 2, got ${run.exitCode}:\n${run.stdout}\n${run.stderr}`)
  if (/\n\s+at /.test(run.stderr) || /\n\s+at /.test(run.stdout)) throw new Error(`stack trace in output:\n${run.stderr}`)
  return run.stderr
}
