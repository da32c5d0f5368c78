import { appendFileSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { deserialize, serialize } from 'node:v8'
import { sha256Hex } from '../../hash.js'
import { framed, readFrames, writeFramedFile } from './frames.js'
import type { FileScan, Hit, ScanPlan, ScanRequest } from '../scan/file-scan.js'
import { defaultScanLimits } from '../scan/scan-budget.js'

/** What reading a file gave: its scan, or why it was not scanned. */
export type ScanOutcome = FileScan | 'binary' | 'too-large'

/**
 * A scan's findings, each left out (undefined) when empty, as most are. Hits
 * are one flat array (per pattern: its index, its hits' count, then line,
 * column, lineHash and subject of each): as objects, V8's serializer wrote
 * every hit's property names and took several times as long to read back.
 */
type StoredScan = [
  hits: (string | number)[] | undefined,
  dependencies: FileScan['dependencies'] | undefined,
  waivers: FileScan['waivers'] | undefined,
  overruns: FileScan['overruns'] | undefined,
]

/** A cached outcome, valid for a path while its content identity and its request are the same. */
type Entry = [path: string, identity: string, patterns: readonly number[], manifest: boolean, outcome: StoredScan | 'binary' | 'too-large']

const cellsPerHit = 4

function flatHits(hits: FileScan['hits']): (string | number)[] {
  const cells: (string | number)[] = []
  for (const [pattern, list] of hits) {
    cells.push(pattern, list.length)
    for (const { line, column, lineHash, subject } of list) cells.push(line, column, lineHash, subject)
  }
  return cells
}

/** The hits back from their cells; throws on cells this code did not write (the entry is then not trusted). */
function hitsOf(cells: readonly (string | number)[]): FileScan['hits'] {
  const hits: FileScan['hits'] = new Map()
  for (let at = 0; at < cells.length;) {
    const [pattern, count] = [cells[at], cells[at + 1]]
    if (typeof pattern !== 'number' || typeof count !== 'number') throw new TypeError('not a stored hit list')
    at += 2
    const list: Hit[] = []
    for (let hit = 0; hit < count; hit++, at += cellsPerHit) {
      const [line, column, lineHash, subject] = [cells[at], cells[at + 1], cells[at + 2], cells[at + 3]]
      if (typeof line !== 'number' || typeof column !== 'number' || typeof lineHash !== 'string' || typeof subject !== 'string') {
        throw new TypeError('not a stored hit')
      }
      list.push({ line, column, lineHash, subject })
    }
    hits.set(pattern, list)
  }
  return hits
}

function stored(scan: FileScan): StoredScan {
  const some = <T extends { size: number } | { length: number }>(value: T): T | undefined =>
    ('size' in value ? value.size : value.length) > 0 ? value : undefined
  return [scan.hits.size > 0 ? flatHits(scan.hits) : undefined, some(scan.dependencies), some(scan.waivers), some(scan.overruns)]
}

function restored(request: ScanRequest, [hits, dependencies, waivers, overruns]: StoredScan): FileScan {
  return {
    path: request.path,
    patterns: request.patterns,
    hits: hits === undefined ? new Map() : hitsOf(hits),
    dependencies: dependencies ?? [],
    waivers: waivers ?? [],
    overruns: overruns ?? new Map(),
  }
}

/** Bumped when the shape of an entry, or what it means, changes (3: an inline waiver covers one line; 4: hits as flat cells). */
const format = 4
/** Rewrite the file whole, dropping stale entries, when appended entries outnumber this share of it. */
const compactionShare = 0.25
/**
 * Everything a file's scan depends on besides its path, content and request:
 * mk's version (the scanner's code), the scanned patterns in order (hits are
 * stored by pattern index), the manifest fields and the scan limits.
 */
export function scanCacheKey(plan: ScanPlan, version: string): string {
  const scanned = {
    format,
    version,
    patterns: plan.patterns.map(({ target, pattern }) => [target, pattern]),
    fields: plan.dependencyFields,
    limits: plan.limits ?? defaultScanLimits,
    lineHashes: plan.lineHashes ?? true,
  }
  return sha256Hex(JSON.stringify(scanned))
}

const optional = (value: unknown, kind: typeof Map | typeof Array): boolean => value === undefined || value instanceof kind

function isStoredScan(value: unknown): value is StoredScan {
  return (
    Array.isArray(value) && value.length === 4 && optional(value[0], Array) && optional(value[1], Array) && optional(value[2], Array) && optional(value[3], Map)
  )
}

/** The shape of an entry; what a frame's checksum vouches for is only that a run of this format wrote it. */
function isEntry(value: unknown): value is Entry {
  if (!Array.isArray(value) || value.length !== 5) return false
  const [path, identity, patterns, manifest, outcome] = value as unknown[]
  return (
    typeof path === 'string' &&
    typeof identity === 'string' &&
    Array.isArray(patterns) &&
    typeof manifest === 'boolean' &&
    (outcome === 'binary' || outcome === 'too-large' || isStoredScan(outcome))
  )
}

function samePatterns(a: readonly number[], b: readonly number[]): boolean {
  return a === b || (a.length === b.length && a.every((index, position) => b[position] === index))
}

/** What the scan asks of a cache: given one, it also takes each file's content identity as it reads it. */
export interface ScanMemory {
  knows(path: string): boolean
  get(request: ScanRequest, identity: string): ScanOutcome | undefined
  set(request: ScanRequest, identity: string, outcome: ScanOutcome): void
  save(): void
}

/**
 * A cache that keeps nothing: the scan still takes each file's identity, for
 * a stored result's records, but no scan is written. A tree's first whole
 * check uses it: a fresh clone (a CI run) checks once, and its scans, about a
 * seventh of the cold check's time to keep, would never be read.
 */
export const keepNoScans: ScanMemory = {
  knows: () => false,
  get: () => undefined,
  set: () => undefined,
  save: () => undefined,
}

/**
 * Scan outcomes by path, each valid only for the content identity it was
 * stored with (a blob id, or stat data that changes with every write). A
 * file of checksummed frames: a header naming the key, then batches of
 * entries, later ones winning. Runs append what they scanned; a damaged
 * frame ends the file there, and a file of another key is ignored, so a bad
 * cache costs a rescan, never a wrong answer. Concurrent runs append whole
 * frames or replace the file by rename; either way every frame read is one
 * a run wrote.
 */
export class ScanCache implements ScanMemory {
  private readonly entries = new Map<string, Entry>()
  private readonly fresh: Entry[] = []
  private readonly used = new Set<string>()
  /** Whether the file holds this key's entries; then runs append to it. */
  private loaded = false
  /** Entries in the frames after the first: what a rewrite would drop or fold. */
  private appended = 0
  private readonly file: string
  /** Stored pattern lists found equal to a request's (lists are shared by paths under the same scopes, so few are compared). */
  private readonly equalPatterns = new Map<readonly number[], readonly number[]>()

  constructor(
    directory: string,
    name: string,
    private readonly key: string,
  ) {
    this.file = join(directory, `${name}.bin`)
    let bytes: Buffer
    try {
      bytes = readFileSync(this.file)
    } catch {
      // Missing, unreadable, a folder: the check reads every file, as it would without a cache.
      return
    }
    try {
      const [header, ...batches] = readFrames(bytes)
      if (header === undefined || header.toString('utf8') !== key) return
      batches.forEach((batch, position) => {
        const entries: unknown = deserialize(batch)
        if (!Array.isArray(entries)) throw new TypeError('not a batch of entries')
        for (const entry of entries) if (isEntry(entry)) this.entries.set(entry[0], entry)
        if (position > 0) this.appended += entries.length
      })
      this.loaded = batches.length > 0
    } catch {
      // A frame whose checksum holds but whose content does not deserialize: the rest is not trusted.
    }
  }

  /** Whether any outcome is stored for the path, whatever content it was stored for. */
  knows(path: string): boolean {
    return this.entries.has(path)
  }

  /** The stored outcome of a request, when the file's content is still the one it was stored for. */
  get(request: ScanRequest, identity: string): ScanOutcome | undefined {
    const entry = this.entries.get(request.path)
    if (entry === undefined || entry[1] !== identity || entry[3] !== request.manifest || !this.matchesRequest(entry[2], request.patterns)) return undefined
    const outcome = entry[4]
    let scan: ScanOutcome
    try {
      scan = typeof outcome === 'string' ? outcome : restored(request, outcome)
    } catch {
      // Cells this code did not write: the file is scanned again.
      return undefined
    }
    this.used.add(request.path)
    return scan
  }

  private matchesRequest(stored: readonly number[], requested: readonly number[]): boolean {
    if (this.equalPatterns.get(stored) === requested) return true
    if (!samePatterns(stored, requested)) return false
    this.equalPatterns.set(stored, requested)
    return true
  }

  /** Remember an outcome; a scan that ran out of time is not stored, since on a quieter machine it might finish. */
  set(request: ScanRequest, identity: string, outcome: ScanOutcome): void {
    if (typeof outcome !== 'string' && [...outcome.overruns.values()].includes('time')) return
    const entry: Entry = [request.path, identity, request.patterns, request.manifest, typeof outcome === 'string' ? outcome : stored(outcome)]
    this.entries.set(request.path, entry)
    this.used.add(request.path)
    this.fresh.push(entry)
  }

  /**
   * Store what this run scanned: appended as one frame, or, when the file is
   * new, of another key, or mostly appended batches, rewritten whole with
   * only the paths this run looked up. A cache that cannot be written is
   * left as it was: the check's answer does not depend on it.
   */
  save(): void {
    if (this.fresh.length === 0) return
    const stale = this.entries.size - this.used.size
    try {
      const limit = this.entries.size * compactionShare
      if (!this.loaded || this.appended + this.fresh.length > limit || stale > limit) {
        const kept = [...this.entries.values()].filter((entry) => this.used.has(entry[0]))
        writeFramedFile(this.file, [Buffer.from(this.key), serialize(kept)])
      } else {
        appendFileSync(this.file, framed([serialize(this.fresh)]))
      }
    } catch {
      // Read-only workspace, full disk: the next run scans again.
    }
  }
}
