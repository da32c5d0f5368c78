import { compileCodeSearch } from './code-search.js'
import { findImports } from './imports.js'
import { findInlineWaivers, type Waiver } from './inline-waivers.js'
import { readManifest, type ManifestDependency } from './manifest.js'
import type { CompiledPattern } from './regex.js'
import { SourceText } from './source-text.js'

/** A place in a file, with its line's text: the baseline hashes it, reporters show it. */
export interface Located {
  line: number
  column: number
  lineText: string
}

export interface ImportFound extends Located {
  /** The module as written. */
  specifier: string
  /** The package it belongs to (see packageRoot). */
  root: string
}

export interface DependencyFound extends ManifestDependency {
  lineText: string
}

/** What the check needs of one file's content. */
export interface ScanRequest {
  path: string
  /** Indices into the plan's code patterns whose constraints cover this file. */
  codePatterns: number[]
  imports: boolean
  manifest: boolean
}

/**
 * Everything the constraints need from one file, so its text can be dropped as
 * soon as it is scanned. Plain data: it crosses from a worker thread unchanged.
 */
export interface FileScan {
  path: string
  /** Matches of each requested code pattern, by pattern index; requested patterns without a match map to []. */
  codeMatches: Map<number, Located[]>
  imports: ImportFound[]
  dependencies: DependencyFound[]
  /** `mk-ignore` comments in the file. */
  waivers: Waiver[]
}

export interface ScanPlan {
  /** Every code constraint's pattern, with its compiled form when the caller has one. */
  codePatterns: { pattern: string; regex?: CompiledPattern | undefined }[]
  /** The package.json fields that list dependencies. */
  dependencyFields: string[]
}

export type FileScanner = (request: ScanRequest, text: string) => FileScan

export function createScanner(plan: ScanPlan): FileScanner {
  const codeSearch = compileCodeSearch(plan.codePatterns)
  return (request, text) => {
    const source = new SourceText(request.path, text)
    const located = (offset: number): Located => {
      const { line, column } = source.position(offset)
      return { line, column, lineText: source.line(line) }
    }
    const codeMatches = new Map<number, Located[]>()
    if (request.codePatterns.length > 0) {
      const found = codeSearch.search(text)
      for (const index of request.codePatterns) codeMatches.set(index, found.lineMatchOffsets(index).map(located))
    }
    return {
      path: request.path,
      codeMatches,
      imports: request.imports ? findImports(request.path, text).map((site) => ({ specifier: site.specifier, root: site.root, ...located(site.offset) })) : [],
      dependencies: request.manifest ? readManifest(source, plan.dependencyFields).map((dependency) => ({ ...dependency, lineText: source.line(dependency.line) })) : [],
      waivers: findInlineWaivers(source),
    }
  }
}
