import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { alwaysSkippedDirectories, type IgnoreRules } from './ignore-rules.js'
import type { CheckInput } from './input.js'
import { readWorkspaceFile } from './workspace-file.js'

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
