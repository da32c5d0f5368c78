import { MkError } from '../errors.js'
import { MemoryFormatError, parseMemory } from '../memory/format.js'
import { isMemoryId } from '../memory/ids.js'
import { memoryTiers, type MemoryTier } from '../memory/model.js'

/**
 * The portable form of one tenant's data (`mk store export` / `mk store import`, ADR 0032): one
 * JSON object a line, a header first and an end line last, the same whichever store wrote it, so a
 * tenant moves files → PostgreSQL, back, or between databases. Derived data (the search index,
 * vectors) is not in it: the importing store builds its own.
 */
export const transferFormat = 'mk-store-transfer'
export const transferVersion = 1

export interface TransferHeader {
  format: typeof transferFormat
  version: number
  tenant: string
  scope: string
  /** Which kind of store wrote it (files, postgres). */
  from: string
  exported_at: string
}

/** One change of the history: a memory's text after it (before it, for a deletion), under the commit id the write returned. */
export interface HistoryItem {
  kind: 'history'
  commit: string
  at: string
  author: string | null
  message: string
  op: string
  folder: string | null
  memory_id: string | null
  text: string | null
}

/** Every kind of line after the header; a memory is its file's Markdown, the one text both stores read. */
export type TransferItem =
  | { kind: 'memory'; folder: string; text: string }
  | { kind: 'tier'; folder: string; id: string; tier: MemoryTier }
  | HistoryItem
  | { kind: 'activation'; folder: string; entry: Record<string, unknown> }
  | { kind: 'relation'; folder: string; relation: { from: string; to: string; relationType: string } }
  | { kind: 'receipt'; receipt: Record<string, unknown> }
  | { kind: 'receipt_salt'; salt: string }
  | { kind: 'outcome'; commit: string; event: Record<string, unknown> & { rule_id: string; outcome: string } }

export type TransferKind = TransferItem['kind']
export const transferKinds: readonly TransferKind[] = ['memory', 'tier', 'history', 'activation', 'relation', 'receipt', 'receipt_salt', 'outcome']

/** How many items of each kind, as `--json` and the end line say. */
export type TransferCounts = Record<TransferKind, number>

export const noCounts = (): TransferCounts => ({ memory: 0, tier: 0, history: 0, activation: 0, relation: 0, receipt: 0, receipt_salt: 0, outcome: 0 })

export function countItems(items: Iterable<TransferItem>): TransferCounts {
  const counts = noCounts()
  for (const item of items) counts[item.kind]++
  return counts
}

/** One tenant's data in one store, read whole or replaced whole. */
export interface TenantTransfer {
  /** Which kind of store this is (files, postgres). */
  readonly kind: string
  /** Every item, in the order an import replays them (history oldest first); `progress` is told the count now and then. */
  read(progress: (done: number) => void): Promise<TransferItem[]>
  /** Whether the tenant holds any memory, history or ledger row. */
  isEmpty(): Promise<boolean>
  /** Write the items into an empty tenant (or, with replace, instead of what it holds); nothing is written when it fails. */
  write(items: readonly TransferItem[], options: { replace: boolean; progress: (done: number) => void }): Promise<void>
}

/** Memory folder keys as both stores name them: a layer, or one agent's, session's or source's folder of it. */
const folderKey = /^(project|user|agent\/[^/]+|session\/[^/]+|user\/[^/]+|session\/[^/]+\/[^/]+|(team|org|company)\/[^/]+)$/

const bad = (line: number, message: string): MkError =>
  new MkError('INVALID_INPUT', `line ${line}: ${message}`, {
    details: { line, hint: 'the file must be written by mk store export; nothing was imported' },
  })

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const text = (value: unknown): value is string => typeof value === 'string'
const textOrNull = (value: unknown): value is string | null => value === null || typeof value === 'string'

function parseJson(raw: string, line: number): Record<string, unknown> {
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    throw bad(line, 'is not JSON')
  }
  if (!isObject(value)) throw bad(line, 'is not a JSON object')
  return value
}

export function parseHeader(raw: string | undefined): TransferHeader {
  if (raw === undefined || raw.trim() === '') throw bad(1, `is empty: the file must start with a ${transferFormat} header`)
  const header = parseJson(raw, 1)
  if (header.format !== transferFormat) throw bad(1, `is not a ${transferFormat} header (format is ${JSON.stringify(header.format)})`)
  if (header.version !== transferVersion) {
    throw new MkError('INVALID_INPUT', `line 1: format version ${JSON.stringify(header.version)} is not one this mk reads (${transferVersion})`, {
      details: { line: 1, version: header.version, hint: 'import it with the mk version that exported it, or export it again with this one' },
    })
  }
  if (!text(header.tenant) || !text(header.scope) || !text(header.from) || !text(header.exported_at)) throw bad(1, 'lacks tenant, scope, from or exported_at')
  return { format: transferFormat, version: transferVersion, tenant: header.tenant, scope: header.scope, from: header.from, exported_at: header.exported_at }
}

function checkFolder(value: unknown, line: number): string {
  if (!text(value) || !folderKey.test(value)) throw bad(line, `${JSON.stringify(value)} is not a memory folder (project, user, agent/<id>, …)`)
  return value
}

/** One line after the header, checked as deeply as each store's own reader checks it; INVALID_INPUT names the line. */
export function parseItem(raw: string, line: number): TransferItem {
  const item = parseJson(raw, line)
  switch (item.kind) {
    case 'memory': {
      const folder = checkFolder(item.folder, line)
      if (!text(item.text)) throw bad(line, 'a memory needs its text')
      try {
        const record = parseMemory(item.text)
        if (!isMemoryId(record.id)) throw new MemoryFormatError(`${record.id} is not a memory id`)
      } catch (error) {
        if (error instanceof MemoryFormatError) throw bad(line, `the memory does not parse: ${error.message}`)
        throw error
      }
      return { kind: 'memory', folder, text: item.text }
    }
    case 'tier': {
      const folder = checkFolder(item.folder, line)
      if (!text(item.id) || !isMemoryId(item.id)) throw bad(line, 'a tier needs a memory id')
      if (!(memoryTiers as readonly unknown[]).includes(item.tier)) throw bad(line, `tier ${JSON.stringify(item.tier)} is not one of ${memoryTiers.join(', ')}`)
      return { kind: 'tier', folder, id: item.id, tier: item.tier as MemoryTier }
    }
    case 'history': {
      const { commit, at, author, message, op, folder, memory_id: memoryId } = item
      if (!text(commit) || !/^[0-9a-f]{40}$/.test(commit)) throw bad(line, 'a history entry needs a 40-hex commit id')
      if (!text(at) || Number.isNaN(Date.parse(at))) throw bad(line, 'a history entry needs its time (ISO)')
      if (!textOrNull(author) || !text(message) || !text(op) || !textOrNull(memoryId) || !textOrNull(item.text)) {
        throw bad(line, 'a history entry needs author, message, op, memory_id and text')
      }
      return {
        kind: 'history',
        commit,
        at,
        author,
        message,
        op,
        folder: folder === null ? null : checkFolder(folder, line),
        memory_id: memoryId,
        text: item.text,
      }
    }
    case 'activation': {
      const folder = checkFolder(item.folder, line)
      if (!isObject(item.entry) || !text(item.entry.id) || !text(item.entry.at)) throw bad(line, 'an activation needs an entry with id and at')
      return { kind: 'activation', folder, entry: item.entry }
    }
    case 'relation': {
      const folder = checkFolder(item.folder, line)
      const relation = item.relation
      if (!isObject(relation) || !text(relation.from) || !text(relation.to) || !text(relation.relationType)) {
        throw bad(line, 'a relation needs from, to and relationType')
      }
      return { kind: 'relation', folder, relation: { ...relation, from: relation.from, to: relation.to, relationType: relation.relationType } }
    }
    case 'receipt': {
      if (!isObject(item.receipt) || !text(item.receipt.at) || !Array.isArray(item.receipt.ids)) throw bad(line, 'a receipt needs at and ids')
      return { kind: 'receipt', receipt: item.receipt }
    }
    case 'receipt_salt': {
      if (!text(item.salt) || Buffer.from(item.salt, 'base64').length !== 32) throw bad(line, 'the receipt salt must be 32 bytes in base64')
      return { kind: 'receipt_salt', salt: item.salt }
    }
    case 'outcome': {
      const event = item.event
      if (!text(item.commit) || !/^[0-9a-f]{40}$/.test(item.commit)) throw bad(line, 'an outcome needs a 40-hex commit id')
      if (!isObject(event) || !text(event.rule_id) || !text(event.outcome)) throw bad(line, 'an outcome needs an event with rule_id and outcome')
      return { kind: 'outcome', commit: item.commit, event: { ...event, rule_id: event.rule_id, outcome: event.outcome } }
    }
    default:
      throw bad(line, `kind ${JSON.stringify(item.kind)} is not one of ${transferKinds.join(', ')}`)
  }
}

/** The whole file: header, items, and the end line whose counts prove nothing was cut off. */
export function parseTransfer(content: string): { header: TransferHeader; items: TransferItem[] } {
  const lines = content.split('\n')
  if (lines.at(-1) === '') lines.pop()
  const header = parseHeader(lines[0])
  const last = lines.length
  if (last < 2) throw bad(last + 1, 'the end line is missing: the file was cut off')
  const end = parseJson(lines[last - 1] ?? '', last)
  if (end.kind !== 'end' || !isObject(end.counts)) throw bad(last, 'is not the end line: the file was cut off')
  const items = lines.slice(1, -1).map((raw, index) => parseItem(raw, index + 2))
  // A memory or a tier twice would be one file overwritten on files and a refused row on PostgreSQL: neither is a faithful move.
  const seen = new Set<string>()
  for (const [index, item] of items.entries()) {
    const key =
      item.kind === 'memory'
        ? `memory ${/^id: (\S+)$/m.exec(item.text)?.[1] ?? ''} of ${item.folder}`
        : item.kind === 'tier'
          ? `tier of ${item.id} in ${item.folder}`
          : undefined
    if (key === undefined) continue
    if (seen.has(key)) throw bad(index + 2, `repeats the ${key}`)
    seen.add(key)
  }
  const counts = countItems(items)
  for (const kind of transferKinds) {
    if (end.counts[kind] !== counts[kind]) throw bad(last, `the end line counts ${String(end.counts[kind])} ${kind} lines, the file holds ${counts[kind]}`)
  }
  return { header, items }
}

/** The file's text: the header, one line per item, the end line. */
export function formatTransfer(header: TransferHeader, items: readonly TransferItem[]): string[] {
  return [JSON.stringify(header), ...items.map((item) => JSON.stringify(item)), JSON.stringify({ kind: 'end', counts: countItems(items) })]
}
