import { readFile, rm } from 'node:fs/promises'
import { MkError, isNodeError } from '../errors.js'
import { writeFileExclusive } from '../fs/atomic-write.js'

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return isNodeError(error) && error.code === 'EPERM'
  }
}

/**
 * Run `work` holding a lock file, so two syncs never write the same clone at once.
 * A lock left by a process that died (killed mid-sync) is taken over.
 */
export async function withLock<T>(path: string, what: string, work: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      await writeFileExclusive(path, String(process.pid))
      break
    } catch (error) {
      if (!isNodeError(error) || error.code !== 'EEXIST' || attempt > 0) throw error
      const holder = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10)
      if (Number.isInteger(holder) && holder !== process.pid && isAlive(holder)) {
        throw new MkError('CONFLICT', `${what} is being updated by another mk process (pid ${holder})`, {
          details: { pid: holder, lock: path, hint: `wait for it to finish and run mk sync again (if no mk is running, delete ${path})` },
          retryable: true,
        })
      }
      await rm(path, { force: true })
    }
  }
  try {
    return await work()
  } finally {
    await rm(path, { force: true })
  }
}
