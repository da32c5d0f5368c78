import { lstatSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { statSignature, wallClockNs } from '../../fs/stat-signature.js'
import { alwaysSkippedDirectories, type IgnoreRules } from './ignore-rules.js'
import type { CheckInput } from './input.js'
import { readWorkspaceFile } from './workspace-file.js'

/** The file's stat signature (src/fs/stat-signature.ts), undefined for a missing file or one too recent to trust. */
function statIdentity(root: string, path: string, nowNs: bigint): string | undefined {
  const stats = lstatSync(join(root, path), { bigint: true, throwIfNoEntry: false })
  return stats === undefined ? undefined : statSignature(stats, nowNs)
}

/** The working tree: every file not ignored by .gitignore or check.ignore. Symlinks are never followed. */
export function collectTree(root: string, rules: IgnoreRules): CheckInput {
  const paths: string[] = []
  let symlinksSkipped = 0
  const visit = (directory: string): void => {
    rules.enterDirectory(directory)
    const entries = readdirSync(join(root, directory), { withFileTypes: true })
    for (const entry of entries) {
      // Joined, not a template: a flat string, not a tree of pieces that every lookup by path first flattens and that is kept as long as the path.
      const path = directory === '' ? entry.name : [directory, entry.name].join('/')
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
  rules.forgetAnswers()
  paths.sort()
  const nowNs = wallClockNs()
  return {
    mode: 'tree',
    paths,
    complete: true,
    read: async (path) => readWorkspaceFile(root, path).content,
    disk: { root, statTime: nowNs },
    identity: (path) => statIdentity(root, path, nowNs),
    dependencies: [],
    symlinksSkipped,
  }
}
