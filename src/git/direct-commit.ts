import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { constants, deflateSync } from 'node:zlib'
import { writeFileAtomicSync } from '../fs/atomic-write.js'
import { parseIndex, serializeIndex, UnsupportedRepository, type IndexEntry } from './git-index.js'
import { gitObjectId, type GitObjectType } from './object-id.js'

interface DirectCommit {
  add: readonly string[]
  remove: readonly string[]
  message: string
  author: { name: string; email: string }
}

/** Git's own level for loose objects (core.looseCompression defaults to best speed): an object's id does not depend on it. */
const looseObjectLevel = constants.Z_BEST_SPEED

/** Store a loose object (skipped when it exists: objects are named by their content) and return its id. */
function writeObject(gitDir: string, type: GitObjectType, content: Buffer): string {
  const oid = gitObjectId(type, content)
  const path = join(gitDir, 'objects', oid.slice(0, 2), oid.slice(2))
  if (!existsSync(path)) {
    writeFileAtomicSync(path, deflateSync(Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content]), { level: looseObjectLevel }))
  }
  return oid
}

/** The branch HEAD names and the commit it points at (undefined before the first commit). */
function readHead(gitDir: string): { ref: string; oid: string | undefined } {
  const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim()
  if (!head.startsWith('ref: refs/heads/')) throw new UnsupportedRepository('HEAD is not on a branch')
  const ref = head.slice('ref: '.length)
  const loose = join(gitDir, ref)
  if (existsSync(loose)) return { ref, oid: readFileSync(loose, 'utf8').trim() }
  const packed = join(gitDir, 'packed-refs')
  if (!existsSync(packed)) return { ref, oid: undefined }
  const line = readFileSync(packed, 'utf8')
    .split('\n')
    .find((entry) => entry.endsWith(` ${ref}`))
  return { ref, oid: line?.slice(0, 40) }
}

interface TreeNode {
  files: Map<string, { mode: number; oid: string }>
  folders: Map<string, TreeNode>
}

function emptyNode(): TreeNode {
  return { files: new Map(), folders: new Map() }
}

/** Git sorts tree entries by name, a folder's name compared as if it ended with '/'. */
function treeOrder(a: { key: Buffer }, b: { key: Buffer }): number {
  return Buffer.compare(a.key, b.key)
}

/**
 * A folder's tree object, written into one buffer: a commit writes the tree of the folder it
 * changed again, whole, and memories share a folder, so at 10,000 memories a buffer per entry
 * (three, then a concatenation) was most of a commit's time after the compression.
 */
function writeTree(gitDir: string, node: TreeNode): string {
  const entries = [
    ...[...node.files].map(([name, file]) => {
      const bytes = Buffer.from(name)
      return { name: bytes, key: bytes, mode: file.mode.toString(8), oid: file.oid }
    }),
    ...[...node.folders].map(([name, folder]) => {
      const key = Buffer.from(`${name}/`)
      return { name: key.subarray(0, key.length - 1), key, mode: '40000', oid: writeTree(gitDir, folder) }
    }),
  ].sort(treeOrder)
  // Each entry: "<mode> <name>\0" and the 20 bytes of its object id.
  const content = Buffer.alloc(entries.reduce((total, entry) => total + entry.mode.length + 1 + entry.name.length + 1 + 20, 0))
  let at = 0
  for (const entry of entries) {
    at += content.write(`${entry.mode} `, at, 'latin1')
    at += entry.name.copy(content, at)
    // The NUL after the name is already there: the buffer starts zeroed.
    at += 1
    at += content.write(entry.oid, at, 'hex')
  }
  return writeObject(gitDir, 'tree', content)
}

function treeOf(entries: readonly IndexEntry[]): TreeNode {
  const root = emptyNode()
  for (const entry of entries) {
    const parts = entry.path.split('/')
    const name = parts.pop() as string
    let node = root
    for (const part of parts) {
      let child = node.folders.get(part)
      if (child === undefined) {
        child = emptyNode()
        node.folders.set(part, child)
      }
      node = child
    }
    node.files.set(name, { mode: entry.mode, oid: entry.oid })
  }
  return root
}

function stagedEntry(dir: string, gitDir: string, path: string): IndexEntry {
  const absolute = join(dir, path)
  const stats = statSync(absolute, { bigint: true })
  if (!stats.isFile()) throw new UnsupportedRepository(`${path} is not a regular file`)
  const oid = writeObject(gitDir, 'blob', readFileSync(absolute))
  const seconds = (time: bigint): number => Number(time / 1_000_000_000n)
  const nanoseconds = (time: bigint): number => Number(time % 1_000_000_000n)
  return {
    path,
    oid,
    mode: (stats.mode & 0o111n) !== 0n ? 0o100755 : 0o100644,
    ctimeSeconds: seconds(stats.ctimeNs),
    ctimeNanoseconds: nanoseconds(stats.ctimeNs),
    mtimeSeconds: seconds(stats.mtimeNs),
    mtimeNanoseconds: nanoseconds(stats.mtimeNs),
    dev: Number(stats.dev & 0xffffffffn),
    ino: Number(stats.ino & 0xffffffffn),
    uid: Number(stats.uid),
    gid: Number(stats.gid),
    size: Number(stats.size & 0xffffffffn),
  }
}

function signature(author: DirectCommit['author'], when: Date): string {
  const offset = -when.getTimezoneOffset()
  const sign = offset < 0 ? '-' : '+'
  const hours = String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0')
  const minutes = String(Math.abs(offset) % 60).padStart(2, '0')
  return `${author.name} <${author.email}> ${Math.floor(when.getTime() / 1000)} ${sign}${hours}${minutes}`
}

function initRepository(gitDir: string): void {
  for (const folder of ['objects', 'refs/heads', 'refs/tags']) mkdirSync(join(gitDir, folder), { recursive: true })
  writeFileSync(join(gitDir, 'HEAD'), 'ref: refs/heads/main\n')
  writeFileSync(join(gitDir, 'config'), '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n')
}

/**
 * Commit paths of the work tree by writing loose objects, the index and the
 * branch ref directly: the same repository git or isomorphic-git would leave,
 * for a few milliseconds instead of loading isomorphic-git. The tree is built
 * from the index, as git does, so packed history never needs reading. Anything
 * unusual (another index version, merge stages, a detached HEAD) throws
 * UnsupportedRepository before anything but content-addressed objects is written.
 */
export function commitDirectly(dir: string, change: DirectCommit): string {
  const gitDir = join(dir, '.git')
  const fresh = !existsSync(gitDir)
  const indexFile = join(gitDir, 'index')
  const head = fresh ? { ref: 'refs/heads/main', oid: undefined } : readHead(gitDir)
  if (head.oid !== undefined && !existsSync(indexFile)) throw new UnsupportedRepository('commits but no index')
  const existing = existsSync(indexFile) ? parseIndex(readFileSync(indexFile)) : []
  if (fresh) initRepository(gitDir)

  const entries = new Map(existing.map((entry) => [entry.path, entry]))
  for (const path of change.remove) entries.delete(path)
  for (const path of change.add) entries.set(path, stagedEntry(dir, gitDir, path))
  const tree = writeTree(gitDir, treeOf([...entries.values()]))

  const when = new Date()
  const person = signature(change.author, when)
  const message = change.message.endsWith('\n') ? change.message : `${change.message}\n`
  const body = [`tree ${tree}`, ...(head.oid === undefined ? [] : [`parent ${head.oid}`]), `author ${person}`, `committer ${person}`, '', message].join('\n')
  const commit = writeObject(gitDir, 'commit', Buffer.from(body))
  writeFileAtomicSync(indexFile, serializeIndex([...entries.values()]))
  writeFileAtomicSync(join(gitDir, head.ref), `${commit}\n`)
  return commit
}
