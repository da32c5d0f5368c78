import { findJsImports } from './imports-js.js'
import { findPythonImports } from './imports-python.js'
import type { ImportSite } from './import-site.js'

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

/** The extension with its dot, '' when the file name has none (called for every path of a check). */
function extensionOf(path: string): string {
  const dot = path.lastIndexOf('.')
  return dot > path.lastIndexOf('/') + 1 ? path.slice(dot) : ''
}

export function readsImports(path: string): boolean {
  return Object.hasOwn(readersByExtension, extensionOf(path))
}

/** The import statements of a file, and whether their specifiers are Python module paths. */
export function findImportSites(path: string, text: string): { sites: ImportSite[]; python: boolean } {
  const extension = extensionOf(path)
  const sites = Object.hasOwn(readersByExtension, extension) ? (readersByExtension[extension] as (text: string) => ImportSite[])(text) : []
  return { sites, python: extension === '.py' }
}

/**
 * The package a specifier belongs to: `lodash/fp` -> `lodash`, `@scope/pkg/x` ->
 * `@scope/pkg`, `os.path` -> `os`. Relative and absolute specifiers are their own root.
 */
export function packageRoot(specifier: string, python: boolean): string {
  if (specifier.startsWith('.') || specifier.startsWith('/')) return specifier
  const separator = python ? '.' : '/'
  const first = specifier.indexOf(separator)
  // A scoped npm name keeps its second part: @scope/pkg.
  const end = !python && specifier.startsWith('@') && first !== -1 ? specifier.indexOf('/', first + 1) : first
  return end === -1 ? specifier : specifier.slice(0, end)
}
