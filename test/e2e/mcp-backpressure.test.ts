import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { afterEach, describe, expect, it } from 'vitest'
import { mkBin } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
}
/** Five tools/list replies of the main profile, about 130 KB each: far more than a pipe holds. */
const bigRequests = [
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  ...Array.from({ length: 5 }, (_, n) => ({ jsonrpc: '2.0', id: 2 + n, method: 'tools/list' })),
]
const lines = (messages: readonly object[]): string => messages.map((message) => `${JSON.stringify(message)}\n`).join('')

function startMcp(ws: TempWorkspace) {
  const env = { ...process.env, MK_HOME: ws.mkHome, NO_COLOR: '1' }
  const child = spawn(process.execPath, [mkBin, 'mcp', '--profile', 'main'], { cwd: ws.root, env, stdio: ['pipe', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  return { child, stderr: () => stderr }
}

// Issue 25 item 16: a client that stops reading and closes stdin.
describe('mk mcp and a client that stops reading', () => {
  let ws: TempWorkspace | undefined
  afterEach(async () => {
    await ws?.cleanup()
    ws = undefined
  })

  it('exits 0 without printing bundle source when the client closes stdin and never reads the replies', async () => {
    const workspace = (ws = await makeWorkspace({ 'knowledge/.keep': '' }))
    const { child, stderr } = startMcp(workspace)
    child.stdin.write(lines([initialize]))
    await once(child.stdout, 'data')
    child.stdout.pause()
    child.stdin.end(lines(bigRequests))
    const [code] = (await once(child, 'close')) as [number | null]
    expect(code, stderr()).toBe(0)
    expect(stderr()).not.toContain('mk.cjs')
    expect(
      stderr()
        .split('\n')
        .every((line) => line.length < 300),
      stderr(),
    ).toBe(true)
    expect(stderr()).toContain('the client stopped reading')
  }, 40_000)

  it('delivers every reply to a client that closed stdin and reads them a moment later', async () => {
    const workspace = (ws = await makeWorkspace({ 'knowledge/.keep': '' }))
    const { child, stderr } = startMcp(workspace)
    child.stdin.end(lines([initialize, ...bigRequests]))
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    let output = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
    const [code] = (await once(child, 'close')) as [number | null]
    expect(code, stderr()).toBe(0)
    const ids = output
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => (JSON.parse(line) as { id: number }).id)
    expect(ids.sort()).toEqual([1, 2, 3, 4, 5, 6])
  }, 40_000)
})
