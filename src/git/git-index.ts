import { createHash } from 'node:crypto'
import { MkError } from '../errors.js'

/** One staged file of a git index (version 2, stage 0). */
export interface IndexEntry {
  path: string
  /** Object id, 40 hex characters. */
  oid: string
  mode: number
  ctimeSeconds: number
  ctimeNanoseconds: number
  mtimeSeconds: number
  mtimeNanoseconds: number
  dev: number
  ino: number
  uid: number
  gid: number
  size: number
}

/** What the direct writer does not handle: the caller falls back to isomorphic-git. */
export class UnsupportedRepository extends Error {}

/**
 * Big-endian integers read by hand: Buffer#readUInt*'s argument checks cost more
 * than the reads, done for each of 50,000 entries by the index walks here and
 * in src/constraints/cache/index-records.ts.
 */
export const uint16At = (bytes: Buffer, at: number): number => ((bytes[at] as number) << 8) | (bytes[at + 1] as number)
export const uint32At = (bytes: Buffer, at: number): number =>
  (((bytes[at] as number) << 24) | ((bytes[at + 1] as number) << 16) | ((bytes[at + 2] as number) << 8) | (bytes[at + 3] as number)) >>> 0

const signature = 'DIRC'
const headerBytes = 12
const fixedEntryBytes = 62

/** Entries of a version-2 index; extensions (the TREE cache and others) are dropped, since the entries are about to change. */
export function parseIndex(bytes: Buffer): IndexEntry[] {
  if (bytes.length < headerBytes || bytes.toString('latin1', 0, 4) !== signature) throw new UnsupportedRepository('not a git index')
  if (bytes.readUInt32BE(4) !== 2) throw new UnsupportedRepository(`index version ${bytes.readUInt32BE(4)}`)
  const count = bytes.readUInt32BE(8)
  const entries: IndexEntry[] = []
  let offset = headerBytes
  for (let index = 0; index < count; index++) {
    if (offset + fixedEntryBytes > bytes.length) throw new UnsupportedRepository('truncated index')
    const flags = uint16At(bytes, offset + 60)
    if ((flags & 0x7000) !== 0) throw new UnsupportedRepository('index with merge stages or extended flags')
    const nameEnd = bytes.indexOf(0, offset + fixedEntryBytes)
    if (nameEnd === -1) throw new UnsupportedRepository('truncated index')
    entries.push({
      ctimeSeconds: uint32At(bytes, offset),
      ctimeNanoseconds: uint32At(bytes, offset + 4),
      mtimeSeconds: uint32At(bytes, offset + 8),
      mtimeNanoseconds: uint32At(bytes, offset + 12),
      dev: uint32At(bytes, offset + 16),
      ino: uint32At(bytes, offset + 20),
      mode: uint32At(bytes, offset + 24),
      uid: uint32At(bytes, offset + 28),
      gid: uint32At(bytes, offset + 32),
      size: uint32At(bytes, offset + 36),
      oid: bytes.toString('hex', offset + 40, offset + 60),
      path: bytes.toString('utf8', offset + fixedEntryBytes, nameEnd),
    })
    offset += paddedEntryBytes(nameEnd - offset)
  }
  return entries
}

/** An entry (its fixed fields, extended flags if any, and name) is padded with 1 to 8 NUL bytes to a multiple of 8. */
function paddedEntryBytes(unpaddedBytes: number): number {
  return Math.floor((unpaddedBytes + 8) / 8) * 8
}

/**
 * The index of these entries, ordered as git orders them: by the bytes of their paths. Every
 * private memory write rewrites MK_HOME's whole index, so it is written into one buffer, each
 * path encoded once (not at every comparison of the sort).
 */
export function serializeIndex(entries: readonly IndexEntry[]): Buffer {
  const named = entries.map((entry) => ({ entry, name: Buffer.from(entry.path) })).sort((a, b) => Buffer.compare(a.name, b.name))
  const size = named.reduce((total, { name }) => total + paddedEntryBytes(fixedEntryBytes + name.length), headerBytes)
  // Zero-filled: the NUL bytes that end and pad each name.
  const body = Buffer.alloc(size)
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength)
  body.write(signature, 0, 'latin1')
  view.setUint32(4, 2)
  view.setUint32(8, named.length)
  let offset = headerBytes
  for (const { entry, name } of named) {
    const fields = [
      entry.ctimeSeconds,
      entry.ctimeNanoseconds,
      entry.mtimeSeconds,
      entry.mtimeNanoseconds,
      entry.dev,
      entry.ino,
      entry.mode,
      entry.uid,
      entry.gid,
      entry.size,
    ]
    for (let position = 0; position < fields.length; position++) view.setUint32(offset + position * 4, (fields[position] as number) >>> 0)
    body.write(entry.oid, offset + 40, 'hex')
    view.setUint16(offset + 60, Math.min(name.length, 0xfff))
    name.copy(body, offset + fixedEntryBytes)
    offset += paddedEntryBytes(fixedEntryBytes + name.length)
  }
  return Buffer.concat([body, createHash('sha1').update(body).digest()])
}

/** A staged file as a commit made now would record it. */
export interface StagedIndexEntry {
  path: string
  oid: string
  mode: number
}

const extendedFlag = 0x4000
const stageBits = 0x3000
const intentToAdd = 0x2000
const nameLengthBits = 0xfff
const directoryMode = 0o040000
/** The bits of an entry's mode that say what it is: a file (0o100000), a symbolic link (0o120000), a submodule (0o160000). */
export const entryTypeBits = 0o170000

function unreadableIndex(message: string, hint: string): MkError {
  return new MkError('INVALID_INPUT', `cannot read the git index: ${message}`, { details: { hint } })
}

/**
 * Where one staged entry lies in the index's bytes: callers that compare
 * entries with an earlier snapshot (src/constraints/cache/index-records.ts)
 * read only the bytes they need, without a string or an object per entry.
 */
export type StagedEntryVisitor = (nameStart: number, nameEnd: number, oidStart: number, mode: number) => void

/**
 * Visit the entries of an index of version 2 or 3, in the index's order (by
 * the bytes of their paths), to read what is staged. Files added with
 * `git add -N` hold no content yet and are left out. What this cannot read
 * faithfully is an error, never a silently partial list: version 4, a split
 * or sparse index, unresolved merge conflicts.
 */
export function visitStagedEntries(bytes: Buffer, visit: StagedEntryVisitor): void {
  if (bytes.length < headerBytes || bytes.toString('latin1', 0, 4) !== signature)
    throw unreadableIndex('not a git index', 'check that .git/index (or GIT_INDEX_FILE) is a git index')
  const version = bytes.readUInt32BE(4)
  if (version !== 2 && version !== 3) throw unreadableIndex(`index version ${version} is not supported`, 'run git update-index --index-version 3')
  const count = bytes.readUInt32BE(8)
  let offset = headerBytes
  for (let index = 0; index < count; index++) {
    if (offset + fixedEntryBytes > bytes.length) throw unreadableIndex('it is truncated', 'run git status, which rewrites the index')
    const flags = uint16At(bytes, offset + 60)
    const extended = (flags & extendedFlag) !== 0
    const nameStart = offset + fixedEntryBytes + (extended ? 2 : 0)
    // The flags hold the name's length when it is under 0xfff; a longer name ends at its NUL.
    const nameLength = flags & nameLengthBits
    const nameEnd = nameLength < nameLengthBits && bytes[nameStart + nameLength] === 0 ? nameStart + nameLength : bytes.indexOf(0, nameStart)
    if (nameEnd === -1) throw unreadableIndex('it is truncated', 'run git status, which rewrites the index')
    if ((flags & stageBits) !== 0) {
      const path = bytes.toString('utf8', nameStart, nameEnd)
      throw unreadableIndex(`${path} has unresolved merge conflicts`, 'resolve the conflicts and git add the files, then check again')
    }
    const mode = uint32At(bytes, offset + 24)
    if ((mode & entryTypeBits) === directoryMode)
      throw unreadableIndex('it is a sparse index', 'run git config index.sparse false && git sparse-checkout reapply')
    const addedWithoutContent = extended && (uint16At(bytes, offset + fixedEntryBytes) & intentToAdd) !== 0
    if (!addedWithoutContent) visit(nameStart, nameEnd, offset + 40, mode)
    offset += paddedEntryBytes(nameEnd - offset)
  }
  for (let extension = offset; extension + 8 <= bytes.length - 20; extension += 8 + bytes.readUInt32BE(extension + 4)) {
    if (bytes.toString('latin1', extension, extension + 4) === 'link') throw unreadableIndex('it is a split index', 'run git update-index --no-split-index')
  }
}

/** The staged entries of an index (see visitStagedEntries), decoded. */
export function readStagedEntries(bytes: Buffer): StagedIndexEntry[] {
  const entries: StagedIndexEntry[] = []
  visitStagedEntries(bytes, (nameStart, nameEnd, oidStart, mode) => {
    entries.push({ path: bytes.toString('utf8', nameStart, nameEnd), oid: bytes.toString('hex', oidStart, oidStart + 20), mode })
  })
  return entries
}
