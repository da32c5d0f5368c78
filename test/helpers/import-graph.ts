import { existsSync, readFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url))

export interface ImportGraph {
  /** Repository-relative source files a module loads when it is loaded. */
  files: string[]
  /** Packages and Node built-ins they load. */
  packages: string[]
}

// `import x from`, `import { x } from`, `export { x } from`, `import 'x'`; not `import type`, not `import()`.
const staticImport = /^(?:import|export)\s+(?!type\b)(?:[^;]*?\sfrom\s+)?'([^']+)'/gms

/** The modules a source file loads before any of its code runs: its static imports, followed through the repository's sources. */
export function staticImportGraph(file: string): ImportGraph {
  const files = new Set<string>()
  const packages = new Set<string>()
  const visit = (path: string): void => {
    if (files.has(path)) return
    files.add(path)
    for (const [, specifier = ''] of readFileSync(path, 'utf8').matchAll(staticImport)) {
      if (!specifier.startsWith('.')) {
        packages.add(specifier)
        continue
      }
      const source = resolve(dirname(path), specifier.replace(/\.js$/, '.ts'))
      const candidate = [source, source.replace(/\.ts$/, '.tsx')].find((name) => existsSync(name))
      if (candidate === undefined) throw new Error(`${relative(repositoryRoot, path)} imports ${specifier}, which has no source file`)
      visit(candidate)
    }
  }
  visit(resolve(repositoryRoot, file))
  return { files: [...files].map((path) => relative(repositoryRoot, path)).sort(), packages: [...packages].sort() }
}
