import { mkdir, rm, stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import { MkError, isNodeError } from '../errors.js'

/** A lock older than this is left over from a crashed process. */
const staleAfterMs = 30_000
const giveUpAfterMs = 60_000

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

async function breakIfStale(path: string): Promise<void> {
  try {
    const info = await stat(path)
    if (Date.now() - info.mtimeMs > staleAfterMs) await rm(path, { recursive: true, force: true })
  } catch (error) {
    if (!isNodeError(error) || error.code !== 'ENOENT') throw error
  }
}

/**
 * Run `work` while holding a lock shared by every process on this machine: creating a
 * directory is atomic, so exactly one process succeeds and the others wait their turn.
 */
export async function withLock<T>(path: string, work: () => Promise<T>): Promise<T> {
  await mkdir(dirname(path), { recursive: true })
  const started = Date.now()
  for (let attempt = 0; ; attempt++) {
    try {
      await mkdir(path)
      break
    } catch (error) {
      if (!isNodeError(error) || error.code !== 'EEXIST') throw error
      if (Date.now() - started > giveUpAfterMs) {
        throw new MkError('TIMEOUT', `waited ${giveUpAfterMs / 1000} s for the lock ${path}`, {
          details: { hint: 'another mk process is writing memories; if none is running, delete the lock folder' },
        })
      }
      await breakIfStale(path)
      await pause(5 + Math.random() * Math.min(50, 5 * (attempt + 1)))
    }
  }
  try {
    return await work()
  } finally {
    await rm(path, { recursive: true, force: true })
  }
}
