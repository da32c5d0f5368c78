import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'

const configFileNames = ['.mkrc', '.mkrc.yaml', '.mkrc.yml', '.mkrc.json'] as const

function findUp(start: string, names: readonly string[]): string | undefined {
  let directory = resolve(start)
  for (;;) {
    for (const name of names) {
      const candidate = join(directory, name)
      if (existsSync(candidate)) return candidate
    }
    const parent = dirname(directory)
    if (parent === directory) return undefined
    directory = parent
  }
}

export function findGitRoot(start: string): string | undefined {
  const dotGit = findUp(start, ['.git'])
  return dotGit === undefined ? undefined : dirname(dotGit)
}

export interface WorkspaceLocation {
  root: string
  /** The nearest config file, undefined when the workspace has none. */
  configPath: string | undefined
  /** Where mk keeps the workspace's own state (.mk/: caches, the local server's socket). */
  stateDir: string
}

/**
 * Where the workspace of a folder is, without reading its config: the folder of
 * the nearest config file, else the git root, else the folder itself.
 */
export function locateWorkspace(cwd: string): WorkspaceLocation {
  const start = resolve(cwd)
  const configPath = findUp(start, configFileNames)
  const root = configPath === undefined ? (findGitRoot(start) ?? start) : dirname(configPath)
  return { root, configPath, stateDir: join(root, '.mk') }
}
