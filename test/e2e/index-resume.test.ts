import { spawn } from 'node:child_process'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chatMemories } from '../../scripts/bench/chat-memories.js'
import { formatMemory } from '../../src/memory/format.js'
import { newMemoryId } from '../../src/memory/ids.js'
import { mkBin, parseJson, runMk } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

const count = 400

/** How many documents have their vector committed, read from the index file as another process sees it. */
function embeddedCount(indexPath: string): number {
  const db = new Database(indexPath, { readonly: true, fileMustExist: true })
  try {
    return db.prepare('SELECT count(*) FROM docs WHERE embedded = 1').pluck().get() as number
  } catch {
    return 0 // the tables are not there yet
  } finally {
    db.close()
  }
}

// Issue 18: `mk index update` killed while embedding keeps what it committed, and the next run embeds only the rest.
describe('mk index update killed while embedding', () => {
  let ws: TempWorkspace
  const env = (): NodeJS.ProcessEnv => ({ ...process.env, MK_HOME: ws.mkHome, NO_COLOR: '1', MK_AGENT_ID: '', MK_SESSION_ID: '' })
  beforeAll(async () => {
    ws = await makeWorkspace({ 'knowledge/.keep': '' })
    const now = new Date().toISOString()
    for (const content of chatMemories(count, 5)) {
      const id = newMemoryId()
      const record = { id, layer: 'project' as const, content, tags: [], created: now, updated: now, source: 'test', refs: [], supersedes: [] }
      await ws.write(`knowledge/memory/${id}.md`, formatMemory({ ...record, expires: undefined, lane: 'shared', owner: undefined, metadata: {} }))
    }
  })
  afterAll(() => ws.cleanup())

  it('embeds only what the killed run had not committed', async () => {
    const indexPath = join(ws.root, '.mk', 'index.db')
    const child = spawn(process.execPath, [mkBin, 'index', 'update'], { cwd: ws.root, env: env(), stdio: 'ignore' })
    const exited = new Promise<void>((resolve) => child.on('close', () => resolve()))
    // Kill it as soon as the first window of vectors is committed, well before the last.
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      if (child.exitCode !== null) break
      let committed = 0
      try {
        committed = embeddedCount(indexPath)
      } catch {
        continue // the index file is not created yet
      }
      if (committed > 0) {
        child.kill('SIGKILL')
        break
      }
    }
    await exited
    const committed = embeddedCount(indexPath)
    expect(committed).toBeGreaterThan(0)
    expect(committed).toBeLessThan(count)

    const second = await runMk(['index', 'update', '--json'], { cwd: ws.root, env: { MK_HOME: ws.mkHome, MK_AGENT_ID: undefined, MK_SESSION_ID: undefined } })
    expect(second.exitCode, second.stderr).toBe(0)
    const report = parseJson<{ embedded: number; pendingEmbeddings: number; memories: number }>(second)
    expect(report.memories).toBe(count)
    expect(report.embedded).toBe(count - committed)
    expect(report.pendingEmbeddings).toBe(0)
    expect(embeddedCount(indexPath)).toBe(count)
  }, 600_000)
})
