import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkBin } from '../helpers/mk.js'
import { gitCommitAll, gitInit, makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'
import { proseNotSecrets, proseSecretFormats } from '../fixtures/secret-formats.js'

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return name === '.git' ? [] : statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}

/** Every object of a git repository, decompressed, as git itself reads them. */
function gitObjects(dir: string): string {
  const run = spawnSync('git', ['cat-file', '--batch-all-objects', '--batch'], { cwd: dir, encoding: 'latin1', maxBuffer: 256 * 1024 * 1024 })
  expect(run.status, run.stderr).toBe(0)
  return run.stdout
}

interface CallResult {
  isError?: boolean
  structuredContent?: Record<string, unknown>
  content?: { text: string }[]
}

/** One `mk mcp` process, asked one tool call at a time, as an agent would. */
class McpSession {
  private buffered = ''
  private readonly waiting = new Map<number, (value: CallResult) => void>()
  private nextId = 1

  constructor(private readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      this.buffered += chunk
      let newline: number
      while ((newline = this.buffered.indexOf('\n')) !== -1) {
        const line = this.buffered.slice(0, newline)
        this.buffered = this.buffered.slice(newline + 1)
        const message = JSON.parse(line) as { id?: number; result?: CallResult; error?: { message: string } }
        if (message.id === undefined) continue
        this.waiting.get(message.id)?.(message.result ?? { isError: true, content: [{ text: message.error?.message ?? '' }] })
        this.waiting.delete(message.id)
      }
    })
  }

  request(method: string, params: Record<string, unknown>): Promise<CallResult> {
    const id = this.nextId++
    return new Promise((resolve) => {
      this.waiting.set(id, resolve)
      this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`)
    })
  }

  async call(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const result = await this.request('tools/call', { name, arguments: args })
    expect(result.isError, `${name}: ${result.content?.map((part) => part.text).join('\n')}`).not.toBe(true)
    return result.structuredContent ?? {}
  }

  close(): Promise<number | null> {
    return new Promise((resolve) => {
      this.child.once('close', resolve)
      this.child.stdin.end()
    })
  }
}

async function startMcp(ws: TempWorkspace): Promise<McpSession> {
  const env = { ...process.env, MK_HOME: ws.mkHome, NO_COLOR: '1', MK_AGENT_ID: '', MK_SESSION_ID: '' }
  const session = new McpSession(spawn(process.execPath, [mkBin, 'mcp', '--profile', 'main'], { cwd: ws.root, env }))
  await session.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'secrets-test', version: '1' } })
  return session
}

const rule = '---\ntype: rule\ntitle: Search with ripgrep\nsummary: Prefer rg for searching code\nif: true\nthen: {tool: {prefer: [rg]}}\n---\n'

// Issue 25 item 13: secrets written in prose (named in a sentence, followed by punctuation, in a
// URL) through every field mk writes never reach the files, the index or either git history.
describe('secrets in prose never reach disk', () => {
  let ws: TempWorkspace
  let mcp: McpSession
  beforeAll(async () => {
    ws = await makeWorkspace({ 'knowledge/adr/.keep': '', 'knowledge/rules/prefer-rg.md': rule, '.mkrc': 'search:\n  embedding:\n    provider: none\n' })
    await gitInit(ws.root)
    await gitCommitAll(ws.root, 'knowledge')
    mcp = await startMcp(ws)
  })
  afterAll(async () => {
    await mcp.close()
    await ws.cleanup()
  })

  it('keeps at most 2 of the formats off disk through content, tags, metadata, run ids, reasons, titles and history', async () => {
    const formats = proseSecretFormats()
    expect(formats.length).toBeGreaterThanOrEqual(50)
    for (const [n, format] of formats.entries()) {
      const layer = n % 2 === 0 ? 'user' : 'project'
      const added = await mcp.call('memory_add', {
        layer,
        content: `Handover note ${n}: ${format.text}`,
        tags: format.secret.length <= 64 ? ['handover', format.secret] : ['handover'],
        metadata: { note: format.text, value: format.secret, [`from-${n}`]: 'handover' },
      })
      const memoryId = String(added.memoryId)
      const runId = format.text.length <= 200 ? format.text : format.secret.slice(0, 200)
      await mcp.call('memory_activate', { ids: [memoryId], outcome: 'positive', reason: format.text.slice(0, 500), run_id: runId })
      await mcp.call('tools_feedback', {
        context: { task: { kind: 'search' } },
        candidates: ['rg', 'grep'],
        selected_tool: 'rg',
        outcome: 'positive',
        run_id: runId,
        note: format.text,
        input_text: format.text,
      })
      if (format.text.length <= 200) await mcp.call('knowledge_new', { type: 'adr', title: format.text.replaceAll('\n', ' ') })
      // A cold memory brought back with a reason that names the secret: file, ledger and commit message.
      const cold = `mem_01JREHYDRATE${String(n).padStart(14, '0')}`
      await mkdir(join(ws.mkHome, 'memory', 'user'), { recursive: true })
      await writeFile(
        join(ws.mkHome, 'memory', 'user', `${cold}.md`),
        `---\nid: ${cold}\nlayer: user\ntier: cold\ncreated: 2026-01-01T00:00:00.000Z\n---\nan old fact ${n}\n`,
      )
      const rehydrated = await mcp.call('memory_rehydrate', { ids: [cold], target_tier: 'hot', reason: format.text.slice(0, 500) })
      expect(rehydrated.moved).toEqual([cold])
    }
    const written = [...filesUnder(ws.root), ...filesUnder(ws.mkHome)]
    const everything = [written.map((file) => readFileSync(file, 'latin1')).join('\n'), gitObjects(ws.mkHome), gitObjects(ws.root)].join('\n')
    const leaked = formats.filter((format) => everything.includes(format.secret)).map((format) => format.name)
    const where = new Map<string, number>()
    for (const file of written) {
      const text = readFileSync(file, 'latin1')
      const kind = file.startsWith(ws.mkHome)
        ? `MK_HOME ${file.slice(ws.mkHome.length + 1).split('/')[0]}`
        : `workspace ${file.slice(ws.root.length + 1).split('/')[0]}`
      where.set(kind, (where.get(kind) ?? 0) + formats.filter((format) => text.includes(format.secret)).length)
    }
    process.stdout.write(`where: ${JSON.stringify(Object.fromEntries(where))}\n`)
    process.stdout.write(`prose secret formats reaching disk: ${leaked.length} of ${formats.length}${leaked.length > 0 ? ` (${leaked.join('; ')})` : ''}\n`)
    expect(leaked.length, leaked.join('\n')).toBeLessThanOrEqual(2)
  }, 240_000)

  it('leaves ordinary prose, ULIDs, commit hashes and UUIDs alone', async () => {
    for (const text of proseNotSecrets) {
      const added = await mcp.call('memory_add', { content: text, tags: ['prose'], metadata: { text } })
      expect(added.redactions, text).toEqual([])
      const shown = await mcp.call('memory_show', { memoryId: added.memoryId })
      expect(shown.content).toBe(text)
    }
  })
})
