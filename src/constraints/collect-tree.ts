import { closeSync, fstatSync, openSync, readSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { alwaysSkippedDirectories, type IgnoreRules } from './ignore-rules.js'
import { classifyContent, maxFileBytes, type CheckInput, type FileContent } from './input.js'

/** One buffer for every read: the text decoded from it is a copy, and reads are synchronous. */
let scratch: Buffer | undefined

/** Read a workspace file, skipping files over the size limit without reading them (one open, one fstat, one read). */
export function readWorkspaceFile(root: string, path: string): FileContent {
  const descriptor = openSync(join(root, path), 'r')
  try {
    const { size } = fstatSync(descriptor)
    if (size > maxFileBytes) return { kind: 'too-large' }
    scratch ??= Buffer.allocUnsafe(maxFileBytes)
    const bytes = scratch
    let read = 0
    for (let count = -1; read < size && count !== 0; read += count) count = readSync(descriptor, bytes, read, size - read, null)
    return classifyContent(bytes.subarray(0, read))
  } finally {
    closeSync(descriptor)
  }
}

/** The working tree: every file not ignored by .gitignore or check.ignore. Symlinks are never followed. */
export function collectTree(root: string, rules: IgnoreRules): CheckInput {
  const paths: string[] = []
  let symlinksSkipped = 0
  const visit = (directory: string): void => {
    rules.enterDirectory(directory)
    const entries = readdirSync(join(root, directory), { withFileTypes: true })
    for (const entry of entries) {
      const path = directory === '' ? entry.name : `${directory}/${entry.name}`
      if (entry.isSymbolicLink()) {
        if (!rules.ignores(path, false)) symlinksSkipped++
      } else if (entry.isDirectory()) {
        if (!alwaysSkippedDirectories.has(entry.name) && !rules.ignores(path, true)) visit(path)
      } else if (entry.isFile() && !rules.ignores(path, false)) {
        paths.push(path)
      }
    }
  }
  visit('')
  paths.sort()
  return {
    mode: 'tree',
    paths,
    complete: true,
    read: async (path) => readWorkspaceFile(root, path),
    dependencies: [],
    symlinksSkipped,
  }
}
