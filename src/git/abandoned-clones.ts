import { readdir, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { pidAlive } from '../fs/process-liveness.js'

/** Temp and displaced clones (`.<name>.clone-<pid>-<time>[.old]`) that a sync killed half-way left beside `dir`. */
export async function removeAbandonedClones(dir: string): Promise<void> {
  const prefix = `.${basename(dir)}.clone-`
  let names: string[]
  try {
    names = await readdir(dirname(dir))
  } catch {
    return
  }
  for (const name of names) {
    const pid = name.startsWith(prefix) ? /^(\d+)-/.exec(name.slice(prefix.length))?.[1] : undefined
    if (pid !== undefined && !pidAlive(Number(pid))) await rm(join(dirname(dir), name), { recursive: true, force: true })
  }
}
