import { requirePathWithin, type AllowedFolder } from '../fs/path-guard.js'
import type { AnyTool } from './define.js'

/** A folder a tool reads or writes in, as the manifest names it. */
export type ToolFolder = 'workspace' | 'mk_home'

/** A field of a tool's input that names a file or folder, e.g. `documents[].path`. */
export interface PathField {
  field: string
  /** What a relative path is relative to, as the tool reads it: the workspace root (default) or the caller's working directory. */
  base?: 'cwd'
  /** A symbolic link in the last part is allowed here: the tool skips links rather than following them. */
  finalLink?: 'allowed'
}

interface PathAccess {
  folders: readonly ToolFolder[]
  fields: readonly PathField[]
}

const workspaceAndHome: readonly ToolFolder[] = ['workspace', 'mk_home']

/**
 * Where each tool that takes paths from its caller may reach. Every other tool reads and
 * writes only places mk derives itself (the workspace, MK_HOME, and what .mkrc names inside
 * them, each behind the path guard); no caller names a path to it.
 */
const pathAccessByTool: Readonly<Record<string, PathAccess>> = {
  knowledge_check: { folders: ['workspace'], fields: [{ field: 'files[].path' }, { field: 'paths[]', finalLink: 'allowed' }] },
  rules_upsert_markdown: { folders: ['workspace'], fields: [{ field: 'documents[].path' }] },
  rules_export_write: { folders: ['workspace'], fields: [{ field: 'out' }] },
  site_build: { folders: workspaceAndHome, fields: [{ field: 'out', base: 'cwd' }] },
}

const placeholders: Record<ToolFolder, string> = { workspace: '<workspace>/**', mk_home: '<MK_HOME>/**' }

/** Folders eval_run reads beyond these: benchmark suites (MK_BENCH_DIR) and, for a local caller, the dataset it names. */
const extraAllowedPaths: Readonly<Record<string, readonly string[]>> = {
  eval_run: ['<MK_BENCH_DIR>/**', '<the dataset path a local caller (CLI, MCP, library) names; through mk serve, the workspace only>'],
}

/** The manifest's `constraints.allowed_paths` of a tool (seed 004): placeholders for the folders its host resolves. */
export function allowedPaths(tool: Pick<AnyTool, 'name'>): string[] {
  const folders = pathAccessByTool[tool.name]?.folders ?? workspaceAndHome
  return [...folders.map((folder) => placeholders[folder]), ...(extraAllowedPaths[tool.name] ?? [])]
}

/** The input fields of a tool that name paths, as declared above. */
export function pathFields(tool: Pick<AnyTool, 'name'>): readonly PathField[] {
  return pathAccessByTool[tool.name]?.fields ?? []
}

/** Every value at a field path such as `documents[].path`, with its concrete location (`documents[2].path`). */
function valuesAt(input: unknown, field: string): { at: string; value: unknown }[] {
  let found: { at: string; value: unknown }[] = [{ at: '', value: input }]
  for (const part of field.split('.')) {
    const list = part.endsWith('[]')
    const key = list ? part.slice(0, -2) : part
    const next: { at: string; value: unknown }[] = []
    for (const { at, value } of found) {
      if (typeof value !== 'object' || value === null) continue
      const child = (value as Record<string, unknown>)[key]
      const name = at === '' ? key : `${at}.${key}`
      if (child === undefined) continue
      if (list) {
        if (Array.isArray(child)) child.forEach((item, index) => next.push({ at: `${name}[${index}]`, value: item }))
      } else next.push({ at: name, value: child })
    }
    found = next
  }
  return found
}

/**
 * The manifest's allowed_paths, enforced before a tool runs: every path its caller gives,
 * resolved as the tool reads it (against the workspace root or the working directory), must lie (as written and
 * through symbolic links) in the tool's folders; otherwise INVALID_INPUT naming the field.
 */
export function requireAllowedInputPaths(tool: Pick<AnyTool, 'name'>, input: unknown, places: { root: string; mkHome: string; cwd: string }): void {
  const access = pathAccessByTool[tool.name]
  if (access === undefined) return
  const folders: AllowedFolder[] = access.folders.map((folder) =>
    folder === 'workspace' ? { path: places.root, name: 'the workspace' } : { path: places.mkHome, name: 'MK_HOME' },
  )
  for (const { field, base, finalLink } of access.fields) {
    for (const { at, value } of valuesAt(input, field)) {
      if (typeof value !== 'string') continue
      requirePathWithin(
        folders,
        base === 'cwd' ? places.cwd : places.root,
        value,
        `${tool.name} input ${at} (allowed_paths)`,
        finalLink === undefined ? {} : { finalLink },
      )
    }
  }
}
