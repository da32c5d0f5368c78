import { createHash } from 'node:crypto'
import * as fs from 'node:fs'
import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { deflateSync, inflateSync } from 'node:zlib'
import { writeFileAtomic } from '../fs/atomic-write.js'

/**
 * Just enough of git's object model to commit one file change without loading a git
 * library: isomorphic-git takes longer to import than the rest of `mk memory add`
 * together. Objects are written loose, exactly as git writes them; objects that git
 * has packed are read through isomorphic-git. The commit is built from HEAD's tree,
 * and the staging index is then rewritten to match it.
 */

interface GitObject {
  type: 'blob' | 'tree' | 'commit'
  content: Buffer
}

interface TreeEntry {
  mode: string
  name: string
  oid: string
}

function objectPath(gitDir: string, oid: string): string {
  return join(gitDir, 'objects', oid.slice(0, 2), oid.slice(2))
}

async function writeObject(gitDir: string, object: GitObject): Promise<string> {
  const raw = Buffer.concat([Buffer.from(`${object.type} ${object.content.length}\0`), object.content])
  const oid = createHash('sha1').update(raw).digest('hex')
  const path = objectPath(gitDir, oid)
  if (!existsSync(path)) await writeFileAtomic(path, deflateSync(raw))
  return oid
}

async function readObject(dir: string, oid: string): Promise<GitObject> {
  const path = objectPath(join(dir, '.git'), oid)
  if (existsSync(path)) {
    const raw = inflateSync(await readFile(path))
    const space = raw.indexOf(0x20)
    const nul = raw.indexOf(0)
    return { type: raw.subarray(0, space).toString() as GitObject['type'], content: raw.subarray(nul + 1) }
  }
  const { default: git } = await import('isomorphic-git')
  const packed = await git.readObject({ fs, dir, oid, format: 'content' })
  return { type: packed.type as GitObject['type'], content: Buffer.from(packed.object as Uint8Array) }
}

function parseTree(content: Buffer): TreeEntry[] {
  const entries: TreeEntry[] = []
  let position = 0
  while (position < content.length) {
    const space = content.indexOf(0x20, position)
    const nul = content.indexOf(0, space)
    entries.push({
      mode: content.subarray(position, space).toString(),
      name: content.subarray(space + 1, nul).toString(),
      oid: content.subarray(nul + 1, nul + 21).toString('hex'),
    })
    position = nul + 21
  }
  return entries
}

/** Git orders tree entries by name, a sub-tree's name compared as if it ended in "/". */
function sortKey(entry: TreeEntry): string {
  return entry.mode === '40000' ? `${entry.name}/` : entry.name
}

function formatTree(entries: readonly TreeEntry[]): Buffer {
  const sorted = [...entries].sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0))
  return Buffer.concat(sorted.map((entry) => Buffer.concat([Buffer.from(`${entry.mode} ${entry.name}\0`), Buffer.from(entry.oid, 'hex')])))
}

/** A new tree with `path` set to `blob` (or removed when blob is undefined); undefined when the tree ends up empty. */
async function updateTree(dir: string, treeOid: string | undefined, path: readonly string[], blob: string | undefined): Promise<string | undefined> {
  const [name, ...rest] = path
  if (name === undefined) throw new Error('empty path')
  const entries = treeOid === undefined ? [] : parseTree((await readObject(dir, treeOid)).content)
  const others = entries.filter((entry) => entry.name !== name)
  const existing = entries.find((entry) => entry.name === name)
  let replacement: TreeEntry | undefined
  if (rest.length === 0) {
    replacement = blob === undefined ? undefined : { mode: '100644', name, oid: blob }
  } else {
    const subtree = await updateTree(dir, existing?.mode === '40000' ? existing.oid : undefined, rest, blob)
    replacement = subtree === undefined ? undefined : { mode: '40000', name, oid: subtree }
  }
  const updated = replacement === undefined ? others : [...others, replacement]
  if (updated.length === 0) return undefined
  return writeObject(join(dir, '.git'), { type: 'tree', content: formatTree(updated) })
}

async function headRef(gitDir: string): Promise<string> {
  const head = (await readFile(join(gitDir, 'HEAD'), 'utf8')).trim()
  return head.startsWith('ref: ') ? head.slice(5) : 'refs/heads/main'
}

async function resolveRef(gitDir: string, ref: string): Promise<string | undefined> {
  const loose = join(gitDir, ref)
  if (existsSync(loose)) return (await readFile(loose, 'utf8')).trim()
  const packedRefs = join(gitDir, 'packed-refs')
  if (!existsSync(packedRefs)) return undefined
  const line = (await readFile(packedRefs, 'utf8')).split('\n').find((entry) => entry.endsWith(` ${ref}`))
  return line?.split(' ')[0]
}

/** A repository as `git init` leaves it, with `main` as the initial branch. */
export async function initRepository(dir: string): Promise<void> {
  const gitDir = join(dir, '.git')
  if (existsSync(join(gitDir, 'HEAD'))) return
  for (const folder of ['objects', 'refs/heads', 'refs/tags']) await mkdir(join(gitDir, folder), { recursive: true })
  await writeFile(join(gitDir, 'config'), '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n')
  await writeFile(join(gitDir, 'HEAD'), 'ref: refs/heads/main\n')
}

/** Every file of a tree, as posix path and blob id, in git's order. */
async function listTree(dir: string, treeOid: string, prefix = ''): Promise<{ path: string; oid: string; mode: string }[]> {
  const files: { path: string; oid: string; mode: string }[] = []
  for (const entry of parseTree((await readObject(dir, treeOid)).content)) {
    const path = `${prefix}${entry.name}`
    if (entry.mode === '40000') files.push(...(await listTree(dir, entry.oid, `${path}/`)))
    else files.push({ path, oid: entry.oid, mode: entry.mode })
  }
  return files
}

/**
 * Write `.git/index` to match the tree, so `git status` in MK_HOME shows a clean work tree.
 * Stat fields are left zero: git then compares contents once and refreshes them itself.
 */
async function writeIndex(dir: string, treeOid: string): Promise<void> {
  const files = (await listTree(dir, treeOid)).sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)))
  const header = Buffer.alloc(12)
  header.write('DIRC', 0)
  header.writeUInt32BE(2, 4)
  header.writeUInt32BE(files.length, 8)
  const entries = files.map((file) => {
    const path = Buffer.from(file.path)
    const length = 62 + path.length
    const entry = Buffer.alloc(Math.ceil((length + 1) / 8) * 8)
    entry.writeUInt32BE(Number.parseInt(file.mode, 8), 24)
    Buffer.from(file.oid, 'hex').copy(entry, 40)
    entry.writeUInt16BE(Math.min(path.length, 0xfff), 60)
    path.copy(entry, 62)
    return entry
  })
  const body = Buffer.concat([header, ...entries])
  await writeFileAtomic(join(dir, '.git', 'index'), Buffer.concat([body, createHash('sha1').update(body).digest()]))
}

export interface FileChange {
  /** Posix path relative to the repository. */
  path: string
  /** New content, or undefined to remove the file from the tree. */
  content: Buffer | undefined
}

/** Commit changes on top of HEAD; callers serialise commits with a lock. Returns the commit id. */
export async function commitFiles(dir: string, changes: readonly FileChange[], message: string, author = { name: 'mk', email: 'mk@localhost' }): Promise<string> {
  const gitDir = join(dir, '.git')
  const ref = await headRef(gitDir)
  const parent = await resolveRef(gitDir, ref)
  let tree: string | undefined
  if (parent !== undefined) {
    const commit = (await readObject(dir, parent)).content.toString()
    tree = /^tree ([0-9a-f]{40})$/m.exec(commit)?.[1]
  }
  for (const change of changes) {
    const blob = change.content === undefined ? undefined : await writeObject(gitDir, { type: 'blob', content: change.content })
    tree = await updateTree(dir, tree, change.path.split('/'), blob)
  }
  const treeOid = tree ?? (await writeObject(gitDir, { type: 'tree', content: Buffer.alloc(0) }))
  const stamp = `${Math.floor(Date.now() / 1000)} +0000`
  const identity = `${author.name} <${author.email}> ${stamp}`
  const body = [`tree ${treeOid}`, ...(parent === undefined ? [] : [`parent ${parent}`]), `author ${identity}`, `committer ${identity}`, '', message.endsWith('\n') ? message : `${message}\n`]
  const oid = await writeObject(gitDir, { type: 'commit', content: Buffer.from(body.join('\n')) })
  await mkdir(dirname(join(gitDir, ref)), { recursive: true })
  await writeFileAtomic(join(gitDir, ref), `${oid}\n`)
  await writeIndex(dir, treeOid)
  return oid
}
