import { PassThrough, Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { StdioLineTransport } from '../../../src/hosts/mcp/stdio-transport.js'

/** An output whose reader reads nothing until `read()` is called. */
function stalledOutput(): { output: Writable; read: () => void } {
  const waiting: (() => void)[] = []
  let reading = false
  const output = new Writable({
    highWaterMark: 1024,
    write(_chunk, _encoding, done) {
      if (reading) done()
      else waiting.push(done)
    },
  })
  return {
    output,
    read: () => {
      reading = true
      for (const done of waiting.splice(0)) done()
    },
  }
}

const isMessage = (value: unknown): value is JSONRPCMessage => typeof value === 'object' && value !== null
const reply = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: { text: 'x'.repeat(2000) } })

// Issue 25 item 16: a client that stops reading.
describe('StdioLineTransport and a client that stops reading', () => {
  it('stops reading requests while too many replies wait unread, and reads again once they are read', async () => {
    const input = new PassThrough()
    const { output, read } = stalledOutput()
    const transport = new StdioLineTransport(input, output, { isMessage, maxUnreadReplyBytes: 4096 })
    await transport.start()
    const sent = [1, 2, 3].map((id) => transport.send(reply(id)))
    expect(input.isPaused()).toBe(true)
    read()
    await Promise.all(sent)
    expect(input.isPaused()).toBe(false)
  })

  it('says the replies were not delivered when the client reads nothing, and delivered once it reads', async () => {
    const { output, read } = stalledOutput()
    const transport = new StdioLineTransport(new PassThrough(), output, { isMessage })
    await transport.start()
    void transport.send(reply(1))
    expect(await transport.flush(50)).toBe(false)
    void transport.send(reply(2))
    const flushed = transport.flush(60_000)
    read()
    expect(await flushed).toBe(true)
  })

  it('drops replies, and ends, when the client closed its end of the output', async () => {
    const output = new PassThrough()
    const transport = new StdioLineTransport(new PassThrough(), output, { isMessage })
    let closed = false
    transport.onclose = () => (closed = true)
    await transport.start()
    const pending = transport.send(reply(1))
    output.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))
    await pending
    await transport.send(reply(2))
    expect(closed).toBe(true)
    expect(await transport.flush(60_000)).toBe(false)
  })
})
