import type { Readable, Writable } from 'node:stream'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'

/** A line (one JSON-RPC message) longer than this is answered with an error and skipped. */
export const maxMessageBytes = 10 * 1024 * 1024

/** Replies waiting for the client to read them, beyond which no more requests are read (backpressure). */
export const maxUnreadReplyBytes = 4 * 1024 * 1024

/** How much of each end of an over-long line is kept to read its id from. */
const edgeBytes = 4096

const parseErrorCode = -32700
const invalidRequestCode = -32600

type RequestId = string | number

export interface StdioLineTransportOptions {
  /** Whether a parsed line is a JSON-RPC message the protocol layer accepts (the SDK's schema). */
  isMessage(value: unknown): value is JSONRPCMessage
  maxMessageBytes?: number
  maxUnreadReplyBytes?: number
}

function idOf(value: unknown): RequestId | null {
  if (typeof value !== 'object' || value === null || !('id' in value)) return null
  const { id } = value as { id: unknown }
  return typeof id === 'string' || typeof id === 'number' ? id : null
}

const idValue = String.raw`("(?:[^"\\]|\\.)*"|-?\d+)`
/** `{"id": 1, ...` or `{"jsonrpc": "2.0", "method": "x", "id": 1, ...`: keys before the payload. */
const idAtStart = new RegExp(String.raw`^\s*\{(?:\s*"(?:jsonrpc|method)"\s*:\s*"[^"\\]*"\s*,)*\s*"id"\s*:\s*${idValue}\s*[,}]`)
/** `..., "id": 1}` closing the line: one brace, so it is the top-level object's id (the SDK writes the id last). */
const idAtEnd = new RegExp(String.raw`[{,]\s*"id"\s*:\s*${idValue}\s*\}\s*$`)

/** The id of a message too long to parse, read from its first or last bytes; null when neither holds it. */
function idFromEdges(start: string, end: string): RequestId | null {
  const found = idAtStart.exec(start)?.[1] ?? idAtEnd.exec(end)?.[1]
  return found === undefined ? null : (JSON.parse(found) as RequestId)
}

/**
 * MCP over stdin/stdout, one JSON message per line. Unlike the SDK's stdio
 * transport, a line that is not JSON, not JSON-RPC or too long is answered with
 * a JSON-RPC error (id null when it cannot be read) and the server keeps serving;
 * the SDK's closes the connection on a long line and stays silent on the others.
 */
export class StdioLineTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void
  onerror?: (error: Error) => void
  onclose?: () => void

  private readonly limit: number
  private readonly unreadLimit: number
  /** Set when the client stopped reading for good (its end of stdout closed): replies are dropped. */
  private outputGone = false
  /** Set while requests are not read because the client has not read the replies (see maxUnreadReplyBytes). */
  private inputHeld = false
  /** Called when the output drains, or when it is gone for good. */
  private readonly drainWaiters = new Set<() => void>()
  private pending: Buffer[] = []
  private pendingBytes = 0
  /** Set while the rest of an over-long line is skipped: its first and last bytes, to read its id from. */
  private skipping: { start: Buffer; end: Buffer; bytes: number } | undefined
  private closed = false

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly options: StdioLineTransportOptions,
  ) {
    this.limit = options.maxMessageBytes ?? maxMessageBytes
    this.unreadLimit = options.maxUnreadReplyBytes ?? maxUnreadReplyBytes
  }

  private readonly onData = (chunk: Buffer): void => {
    let rest = chunk
    while (rest.length > 0) {
      const newline = rest.indexOf(0x0a)
      const part = newline === -1 ? rest : rest.subarray(0, newline)
      rest = newline === -1 ? Buffer.alloc(0) : rest.subarray(newline + 1)
      this.take(part, newline !== -1)
    }
  }

  private readonly onError = (error: Error): void => this.onerror?.(error)

  /** EPIPE and the like: the client closed its end of stdout, so nothing more can reach it. */
  private readonly onOutputError = (): void => {
    this.outputGone = true
    this.wakeDrainWaiters()
    void this.close()
  }

  private readonly onDrain = (): void => {
    if (this.inputHeld && this.output.writableLength <= this.unreadLimit) {
      this.inputHeld = false
      this.input.resume()
    }
    this.wakeDrainWaiters()
  }

  private wakeDrainWaiters(): void {
    const waiters = [...this.drainWaiters]
    this.drainWaiters.clear()
    for (const wake of waiters) wake()
  }

  /** One piece of the current line; `ends` when a newline followed it. */
  private take(part: Buffer, ends: boolean): void {
    if (this.skipping === undefined && this.pendingBytes + part.length > this.limit) {
      const start = Buffer.concat([...this.pending, part.subarray(0, edgeBytes)]).subarray(0, edgeBytes)
      this.skipping = { start, end: Buffer.alloc(0), bytes: this.pendingBytes }
      this.pending = []
      this.pendingBytes = 0
    }
    if (this.skipping !== undefined) {
      this.skipping.bytes += part.length
      this.skipping.end = Buffer.concat([this.skipping.end, part.subarray(-edgeBytes)]).subarray(-edgeBytes)
      if (ends) this.answerTooLong()
      return
    }
    this.pending.push(part)
    this.pendingBytes += part.length
    if (!ends) return
    const line = Buffer.concat(this.pending).toString('utf8').replace(/\r$/, '')
    this.pending = []
    this.pendingBytes = 0
    this.handleLine(line)
  }

  private answerTooLong(): void {
    const skipped = this.skipping
    this.skipping = undefined
    if (skipped === undefined) return
    const megabytes = (this.limit / (1024 * 1024)).toFixed(0)
    this.answerError(
      idFromEdges(skipped.start.toString('utf8'), skipped.end.toString('utf8').replace(/\r$/, '')),
      invalidRequestCode,
      `Invalid Request: the message is ${skipped.bytes} bytes, over this server's limit of ${this.limit} bytes (${megabytes} MB); it was skipped. Send a smaller message (for large content, store it in a file and pass its path).`,
    )
  }

  private handleLine(line: string): void {
    if (line.trim() === '') return
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch (error) {
      this.answerError(null, parseErrorCode, `Parse error: the line is not JSON (${error instanceof Error ? error.message : String(error)})`)
      return
    }
    if (!this.options.isMessage(value)) {
      this.answerError(idOf(value), invalidRequestCode, 'Invalid Request: the line is JSON but not a JSON-RPC 2.0 request, notification or response')
      return
    }
    this.onmessage?.(value)
  }

  private answerError(id: RequestId | null, code: number, message: string): void {
    // The SDK's message type has no id null, which JSON-RPC prescribes when the id cannot be read.
    this.write(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })).catch((error: unknown) => this.onerror?.(error as Error))
  }

  private write(text: string): Promise<void> {
    if (this.outputGone) return Promise.resolve()
    const written = new Promise<void>((resolve) => {
      if (this.output.write(`${text}\n`)) resolve()
      else this.drainWaiters.add(resolve)
    })
    // A client that does not read its replies gets no more requests read for it: memory stays bounded.
    if (!this.inputHeld && !this.closed && this.output.writableLength > this.unreadLimit) {
      this.inputHeld = true
      this.input.pause()
    }
    return written
  }

  /**
   * Wait for the replies written so far to reach the client. False when they cannot: the client
   * closed its end, or read nothing for `patienceMs` (it closed stdin and stopped reading).
   */
  flush(patienceMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined
      const finish = (delivered: boolean): void => {
        clearTimeout(timer)
        this.drainWaiters.delete(check)
        resolve(delivered)
      }
      // Every drain is progress: a slow reader is waited for as long as it keeps reading.
      const check = (): void => {
        if (this.outputGone) finish(false)
        else if (this.output.writableLength === 0) finish(true)
        else {
          clearTimeout(timer)
          timer = setTimeout(() => finish(false), patienceMs)
          this.drainWaiters.add(check)
        }
      }
      check()
    })
  }

  start(): Promise<void> {
    this.input.on('data', this.onData)
    this.input.on('error', this.onError)
    this.output.on('error', this.onOutputError)
    this.output.on('drain', this.onDrain)
    return Promise.resolve()
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(JSON.stringify(message))
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve()
    this.closed = true
    this.input.off('data', this.onData)
    this.input.off('error', this.onError)
    if (this.input.listenerCount('data') === 0) this.input.pause()
    this.pending = []
    this.skipping = undefined
    this.onclose?.()
    return Promise.resolve()
  }
}
