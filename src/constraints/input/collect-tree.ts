import { lstatSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { alwaysSkippedDirectories, type IgnoreRules } from './ignore-rules.js'
import type { CheckInput } from './input.js'
import { readWorkspaceFile } from './workspace-file.js'

/** Nanoseconds: a file changed this recently could change again within the same timestamp, as in git's racy-clean case. */
const settledAfterNs = 2_000_000_000n

/**
 * What changes whenever a file is written: size, modification and change time
 * (the latter cannot be set back by tools that restore mtimes) and inode (an
 * editor that saves by rename). undefined for a file too recent to trust.
 */
function statIdentity(root: string, path: string, settled: bigint): string | undefined {
  const stats = lstatSync(join(root, path), { bigint: true, throwIfNoEntry: false })
  if (stats === undefined) return undefined
  if (stats.mtimeNs > settled || stats.ctimeNs > settled) return undefined
  return `stat ${stats.size} ${stats.mtimeNs} ${stats.ctimeNs} ${stats.ino}`
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
  const settled = BigInt(Date.now()) * 1_000_000n - settledAfterNs
  return {
    mode: 'tree',
    paths,
    complete: true,
    read: async (path) => readWorkspaceFile(root, path),
    identity: (path) => statIdentity(root, path, settled),
    dependencies: [],
    symlinksSkipped,
  }
}
