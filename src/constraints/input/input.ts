/** Where the checked content comes from. */
export type InputMode = 'tree' | 'staged' | 'files' | 'proposal'

/** A dependency an agent proposes to add, checked before it exists in any manifest. */
export interface ProposedDependency {
  name: string
  version: string | undefined
}

export type FileContent = { kind: 'text'; text: string } | { kind: 'binary' } | { kind: 'too-large' }

export interface CheckInput {
  mode: InputMode
  /** Workspace-relative posix paths of every file considered, sorted. */
  paths: string[]
  /**
   * True when `paths` is a whole snapshot (working tree or index): only then can
   * the check conclude that no file imports a module or that no file matches a glob.
   */
  complete: boolean
  read(path: string): Promise<FileContent>
  /**
   * Where the files are when they are files on disk (working tree, named
   * files), so that scan threads read them too; `statTime` when identities
   * are stat signatures, taken relative to that time.
   */
  disk?: { root: string; statTime?: bigint }
  /**
   * What names a file's current content without reading it (a staged blob's
   * id, stat data that every write changes), for the scan cache; undefined
   * when nothing does, and the file is read.
   */
  identity?(path: string): string | undefined
  dependencies: ProposedDependency[]
  /** Symbolic links met and not followed. */
  symlinksSkipped: number
}

export const maxFileBytes = 1024 * 1024

/** Git's rule: a NUL byte in the first 8000 bytes makes a file binary. */
const binaryProbeBytes = 8000

export function classifyContent(bytes: Uint8Array): FileContent {
  if (bytes.byteLength > maxFileBytes) return { kind: 'too-large' }
  if (bytes.subarray(0, binaryProbeBytes).includes(0)) return { kind: 'binary' }
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')
  return { kind: 'text', text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text }
}

export function classifyText(text: string): FileContent {
  return Buffer.byteLength(text, 'utf8') > maxFileBytes ? { kind: 'too-large' } : { kind: 'text', text }
}
