import { spawn, type ChildProcess } from 'node:child_process'
import { mkBin, mkEnv } from './mk.js'

export interface RunningServe {
  url: string
  /** The start line, as `mk serve --json` printed it. */
  started: Record<string, unknown>
  child: ChildProcess
  /** Everything the server wrote to stderr so far (the request log). */
  stderr(): string
  /** POST a JSON body; headers as given. */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }>
  /** /readyz once it answers 200 (every thread has loaded the write path and its model), or its last answer after 60 s. */
  ready(): Promise<Response>
  /** SIGTERM, then wait for the exit code; SIGKILL if it has not exited after 15 s (a thread spinning), so no test leaves a server behind. */
  stop(): Promise<number | null>
}

export interface ServeStart {
  cwd: string
  args?: readonly string[]
  env?: Record<string, string | undefined>
}

/** The exit of a server that never started: its exit code and what it said. */
export interface FailedStart {
  exitCode: number | null
  stdout: string
  stderr: string
}

/** How long stop() waits after SIGTERM before SIGKILL: the server itself gives a stuck thread 5 s. */
const stopWithinMs = 15_000

/** Spawns the built `mk serve --port 0 --json` and waits for its start line (the JSON object with its URL). */
export function startServe(options: ServeStart): Promise<RunningServe> {
  const child = spawn(process.execPath, [mkBin, 'serve', '--port', '0', '--json', ...(options.args ?? [])], {
    cwd: options.cwd,
    env: mkEnv(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk
      let started: { url?: string } & Record<string, unknown>
      try {
        started = JSON.parse(stdout) as { url?: string } & Record<string, unknown>
      } catch {
        return
      }
      const url = started.url ?? ''
      resolve({
        url,
        started,
        child,
        stderr: () => stderr,
        async post(path, body, headers = {}) {
          const response = await fetch(`${url}${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...headers },
            body: JSON.stringify(body),
          })
          return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> }
        },
        async ready() {
          const until = Date.now() + 60_000
          for (;;) {
            const response = await fetch(`${url}/readyz`)
            if (response.status === 200 || Date.now() > until) return response
            await new Promise((wait) => setTimeout(wait, 100))
          }
        },
        async stop() {
          if (child.exitCode === null) child.kill('SIGTERM')
          const killer = setTimeout(() => child.kill('SIGKILL'), stopWithinMs)
          try {
            return await exited
          } finally {
            clearTimeout(killer)
          }
        },
      })
    })
    void exited.then((exitCode) =>
      reject(Object.assign(new Error(`mk serve exited with ${exitCode} before it started`), { exitCode, stdout, stderr } satisfies FailedStart)),
    )
  })
}
