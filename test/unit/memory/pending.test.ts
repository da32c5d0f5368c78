import { spawnSync } from 'node:child_process'
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { pendingChanges } from '../../../src/memory/pending.js'

let home: string
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'mk-pending-'))
})
afterEach(async () => rm(home, { recursive: true, force: true }))

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' })
  return Number(child.stdout)
}

describe('pending changes', () => {
  it('removes the temporary file of a marker whose writer was killed mid-write, and keeps a live writer’s', async () => {
    const dir = join(home, '.pending', 'user')
    await mkdir(dir, { recursive: true })
    const abandoned = `.mem_01JAAAAAAAAAAAAAAAAAAAAAAA.delete.json.${deadPid()}.a0405527.tmp`
    const live = `.mem_01JBBBBBBBBBBBBBBBBBBBBBBB.add.json.${process.pid}.b1516638.tmp`
    await writeFile(join(dir, abandoned), '{"op":"del')
    await writeFile(join(dir, live), '{"op":"add')
    expect(await pendingChanges(home, 'user')).toEqual([])
    expect(await readdir(dir)).toEqual([live])
  })
})
