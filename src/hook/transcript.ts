/** A tool call found in a Claude Code session transcript, with what came back. */
export interface TranscriptToolCall {
  id: string
  name: string
  input: unknown
  /** The tool result's text; undefined when the transcript holds no result for it. */
  result: string | undefined
  isError: boolean
}

export interface Transcript {
  calls: TranscriptToolCall[]
  /** Every line's text, to find what hooks added to the context (it is stored in several shapes). */
  text: string
  /** Lines that are not JSON (a transcript cut short while written). */
  unreadable: number
}

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value)

function contentItems(line: Json): Json[] {
  const message = line.message
  if (!isObject(message) || !Array.isArray(message.content)) return []
  return message.content.filter(isObject)
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content
  if (Array.isArray(content)) return content.map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : '')).join('\n')
  return ''
}

/**
 * The tool calls of a Claude Code transcript (JSONL: one event per line; assistant messages hold
 * `tool_use` items, user messages the matching `tool_result` items, a hook's refusal among them).
 */
export function parseTranscript(jsonl: string): Transcript {
  const calls = new Map<string, TranscriptToolCall>()
  let unreadable = 0
  for (const raw of jsonl.split('\n')) {
    if (raw.trim() === '') continue
    let line: unknown
    try {
      line = JSON.parse(raw)
    } catch {
      unreadable++
      continue
    }
    if (!isObject(line)) continue
    for (const item of contentItems(line)) {
      if (item.type === 'tool_use' && typeof item.id === 'string' && typeof item.name === 'string') {
        calls.set(item.id, { id: item.id, name: item.name, input: item.input, result: calls.get(item.id)?.result, isError: false })
      } else if (item.type === 'tool_result' && typeof item.tool_use_id === 'string') {
        const call = calls.get(item.tool_use_id)
        if (call !== undefined) Object.assign(call, { result: resultText(item.content), isError: item.is_error === true })
      }
    }
  }
  return { calls: [...calls.values()], text: jsonl, unreadable }
}
