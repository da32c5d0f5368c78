import { spawn } from 'node:child_process'
import { openSync, closeSync } from 'node:fs'
import { mkdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { loadWorkspace } from '../../config/load.js'
import { MkError } from '../../errors.js'
import { writeFileAtomic } from '../../fs/atomic-write.js'
import { localSocketPath } from './socket.js'
import { socketAnswers } from './socket.js'

export interface DaemonOptions {
  cwd: string
  env: NodeJS.ProcessEnv
  /** The mk launcher to start `mk serve` with (bin/run.js). */
  mkBin: string
}

export interface DaemonState {
  running: boolean
  socket: string
  pid: number | undefined
  /** Where the server's request log goes. */
  log: string
}

const waitStepMs = 50
const startTimeoutMs = 60_000
const stopTimeoutMs = 30_000

async function paths(options: Pick<DaemonOptions, 'cwd' | 'env'>): Promise<{ root: string; socket: string; pidFile: string; log: string }> {
  const workspace = await loadWorkspace({ cwd: options.cwd, env: options.env })
  return {
    root: workspace.root,
    socket: localSocketPath(workspace.stateDir),
    pidFile: join(workspace.stateDir, 'serve.pid'),
    log: join(workspace.stateDir, 'serve.log'),
  }
}

async function readPid(pidFile: string): Promise<number | undefined> {
  const text = await readFile(pidFile, 'utf8').catch(() => undefined)
  const pid = Number(text?.trim())
  return Number.isInteger(pid) && pid > 0 ? pid : undefined
}

/** Whether a process with this id exists (signal 0 only asks). */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, waitStepMs))

/** `mk daemon start`: `mk serve --socket .mk/serve.sock` in the background for this workspace, once. */
export async function startDaemon(options: DaemonOptions): Promise<DaemonState> {
  const { root, socket, pidFile, log } = await paths(options)
  if (await socketAnswers(socket)) return { running: true, socket, pid: await readPid(pidFile), log }
  await mkdir(join(socket, '..'), { recursive: true })
  const logFd = openSync(log, 'a')
  const child = spawn(process.execPath, [options.mkBin, 'serve', '--socket', socket, '--json'], {
    cwd: root,
    env: options.env,
    detached: true,
    stdio: ['ignore', 'ignore', logFd],
  })
  closeSync(logFd)
  child.unref()
  const pid = child.pid
  if (pid === undefined) throw new MkError('INTERNAL_ERROR', 'mk serve could not be started')
  await writeFileAtomic(pidFile, `${pid}\n`)
  for (let waited = 0; waited < startTimeoutMs; waited += waitStepMs) {
    if (await socketAnswers(socket)) return { running: true, socket, pid, log }
    if (!processExists(pid)) break
    await pause()
  }
  await rm(pidFile, { force: true })
  throw new MkError('PROVIDER_ERROR', `mk serve did not start on ${socket}`, { details: { hint: `read ${log}` } })
}

/** `mk daemon stop`: SIGTERM to the workspace's daemon (calls in flight finish), then wait for it to exit. */
export async function stopDaemon(options: Pick<DaemonOptions, 'cwd' | 'env'>): Promise<DaemonState> {
  const { socket, pidFile, log } = await paths(options)
  const pid = await readPid(pidFile)
  // A pid file whose server no longer answers is stale: its number may belong to another process by now.
  if (pid === undefined || !(await socketAnswers(socket)) || !processExists(pid)) {
    await rm(pidFile, { force: true })
    return { running: false, socket, pid: undefined, log }
  }
  process.kill(pid, 'SIGTERM')
  for (let waited = 0; waited < stopTimeoutMs && processExists(pid); waited += waitStepMs) await pause()
  if (processExists(pid)) throw new MkError('TIMEOUT', `mk serve (pid ${pid}) did not stop within ${stopTimeoutMs / 1000} s`, { details: { pid } })
  await rm(pidFile, { force: true })
  return { running: false, socket, pid, log }
}
