import { existsSync, readFileSync } from 'node:fs'
import { copyFile, chmod } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { MkError } from '../errors.js'
import { gitFolders } from '../git/git-folders.js'
import { writeFileAtomic } from '../fs/atomic-write.js'
import { packageRoot } from '../package-root.js'
import { toPosix } from '../fs/walk.js'
import { shellQuote } from '../text.js'

/** Written into every hook mk installs; a hook without it belongs to someone else. */
export const hookMarker = 'mk-managed-hook'

export function preCommitScript(workspaceFromGitRoot: string): string {
  const cwd = workspaceFromGitRoot === '' ? '' : ` --cwd ${shellQuote(workspaceFromGitRoot)}`
  return [
    '#!/bin/sh',
    `# ${hookMarker}: written by \`mk hook install\`. Blocks commits whose staged`,
    '# content breaks an accepted knowledge constraint. Bypass once with',
    '# `git commit --no-verify`; remove this file to uninstall.',
    `mk_launcher=${shellQuote(join(packageRoot(), 'bin', 'run.js'))}`,
    `node_bin=${shellQuote(process.execPath)}`,
    '[ -x "$node_bin" ] || node_bin=node',
    'if [ -f "$mk_launcher" ]; then',
    `  exec "$node_bin" "$mk_launcher" knowledge check --staged${cwd}`,
    'fi',
    'if command -v mk >/dev/null 2>&1; then',
    `  exec mk knowledge check --staged${cwd}`,
    'fi',
    // mk was moved or uninstalled since the hook was written: say how to repair, not "mk: not found" (exit 127).
    'echo "Error [NOT_FOUND] the mk pre-commit hook cannot find mk: $mk_launcher is gone and mk is not on PATH" >&2',
    'echo "hint: reinstall the hook with mk hook install (or npx mk-knowledge hook install); git commit --no-verify skips it once" >&2',
    'exit 2',
    '',
  ].join('\n')
}

/** The hooks folder of a repository, also when `.git` is a file (worktrees, submodules): hooks and config are shared by every work tree. */
function hooksDirectory(gitRoot: string): { hooks: string; configFile: string } {
  const { commonDir } = gitFolders(gitRoot)
  return { hooks: join(commonDir, 'hooks'), configFile: join(commonDir, 'config') }
}

/** The pre-commit hook file git runs for this repository's default hooks folder (every work tree shares it). */
export function preCommitHookFile(gitRoot: string): string {
  return join(hooksDirectory(gitRoot).hooks, 'pre-commit')
}

function configuredHooksPath(configFile: string): string | undefined {
  if (!existsSync(configFile)) return undefined
  return /^\s*hookspath\s*=\s*(.+)$/im.exec(readFileSync(configFile, 'utf8'))?.[1]?.trim()
}

export interface HookInstallation {
  /** Path of the hook, relative to the git root. */
  path: string
  action: 'created' | 'updated' | 'unchanged' | 'replaced'
  /** Where a replaced foreign hook was saved. */
  backup: string | undefined
  /** Set when git runs hooks from core.hooksPath, so the written hook will not run. */
  hooksPath: string | undefined
}

export async function installPreCommitHook(workspaceRoot: string, gitRoot: string | undefined, force: boolean): Promise<HookInstallation> {
  if (gitRoot === undefined) {
    throw new MkError('NOT_FOUND', `${workspaceRoot} is not inside a git repository`, { details: { hint: 'run git init first' } })
  }
  const { configFile } = hooksDirectory(gitRoot)
  const hookFile = preCommitHookFile(gitRoot)
  const shown = toPosix(relative(gitRoot, hookFile))
  const script = preCommitScript(toPosix(relative(gitRoot, workspaceRoot)))
  const existing = existsSync(hookFile) ? readFileSync(hookFile, 'utf8') : undefined
  let action: HookInstallation['action'] = 'created'
  let backup: string | undefined
  if (existing === script) {
    action = 'unchanged'
  } else if (existing !== undefined && existing.includes(hookMarker)) {
    action = 'updated'
  } else if (existing !== undefined) {
    if (!force) {
      throw new MkError('CONFLICT', `${shown} already exists and was not written by mk; refusing to replace it`, {
        details: {
          path: shown,
          hint: 'add `mk knowledge check --staged` to your hook yourself, or rerun with --force (the old hook is kept as pre-commit.mk-backup)',
        },
      })
    }
    backup = `${shown}.mk-backup`
    await copyFile(hookFile, `${hookFile}.mk-backup`)
    action = 'replaced'
  }
  if (action !== 'unchanged') await writeFileAtomic(hookFile, script)
  await chmod(hookFile, 0o755)
  return { path: shown, action, backup, hooksPath: configuredHooksPath(configFile) }
}

export const huskyEquivalent = 'echo "npx mk-knowledge knowledge check --staged" > .husky/pre-commit'

export const lefthookEquivalent = [
  '# lefthook.yml',
  'pre-commit:',
  '  commands:',
  '    mk-knowledge-check:',
  '      run: npx mk-knowledge knowledge check --staged',
].join('\n')
