import { extname } from 'node:path'
import { findJsImports } from './imports-js.js'
import { findPythonImports } from './imports-python.js'

export interface ImportSite {
  /** The module as written: `lodash/fp`, `./util.js`, `os.path`, `.models`. */
  specifier: string
  /** Offset of the statement's keyword (`import`, `export`, `require`, `from`). */
  offset: number
}

export interface ModuleImport extends ImportSite {
  /** The package the specifier belongs to (see packageRoot). */
  root: string
}

const readersByExtension: Readonly<Record<string, (text: string) => ImportSite[]>> = {
  '.js': findJsImports,
  '.jsx': findJsImports,
  '.ts': findJsImports,
  '.tsx': findJsImports,
  '.mjs': findJsImports,
  '.cjs': findJsImports,
  '.mts': findJsImports,
  '.cts': findJsImports,
  '.py': findPythonImports,
}

export function readsImports(path: string): boolean {
  return extname(path) in readersByExtension
}

export function findImports(path: string, text: string): ModuleImport[] {
  const sites = readersByExtension[extname(path)]?.(text) ?? []
  const python = extname(path) === '.py'
  return sites.map((site) => ({ ...site, root: packageRoot(site.specifier, python) }))
}

/**
 * The package a specifier belongs to: `lodash/fp` -> `lodash`, `@scope/pkg/x` ->
 * `@scope/pkg`, `os.path` -> `os`. Relative and absolute specifiers are their own root.
 */
export function packageRoot(specifier: string, python: boolean): string {
  if (specifier.startsWith('.') || specifier.startsWith('/')) return specifier
  if (python) return specifier.split('.')[0] ?? specifier
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier)
}
