import { lstatSync } from 'node:fs'
import { join } from 'node:path'
import { MkError } from '../../errors.js'
import { readWorkspaceFile } from './workspace-file.js'
import type { IgnoreRules } from './ignore-rules.js'
import type { CheckInput } from './input.js'
import { requireInsideWorkspace } from '../../fs/path-guard.js'

/**
 * Files named on the command line (what pre-commit frameworks pass): absolute,
 * or relative to the workspace root. Only `check.ignore` applies: naming a file asks for it.
 */
export function collectFiles(root: string, names: readonly string[], rules: IgnoreRules): CheckInput {
  const paths = new Set<string>()
  let symlinksSkipped = 0
  for (const name of names) {
    const path = requireInsideWorkspace(root, name, '--files', { finalLink: 'allowed' })
    let stats
    try {
      stats = lstatSync(join(root, path))
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'ENOENT')
        throw new MkError('INVALID_INPUT', `--files: ${path} does not exist`, { details: { path, hint: 'pass existing files; deleted files need no check' } })
      throw new MkError('INVALID_INPUT', `--files: cannot read ${path}: ${(error as Error).message}`, { details: { path, code } })
    }
    if (stats.isSymbolicLink()) symlinksSkipped++
    else if (!stats.isFile())
      throw new MkError('INVALID_INPUT', `--files: ${path} is not a regular file`, {
        details: { path, hint: 'pass files, not folders; without --files the whole working tree is checked' },
      })
    else if (!rules.configuredIgnores(path)) paths.add(path)
  }
  return {
    mode: 'files',
    paths: [...paths].sort(),
    complete: false,
    read: async (path) => readWorkspaceFile(root, path).content,
    disk: { root },
    dependencies: [],
    symlinksSkipped,
  }
}
