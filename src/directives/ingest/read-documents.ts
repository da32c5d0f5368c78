import { stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { MkError, isNodeError } from '../../errors.js'
import { insideWorkspace, requireInsideWorkspace, resolvesWithin } from '../../fs/path-guard.js'
import { FileTooLargeError, maxRulesFileBytes, readRulesText } from '../../fs/read-capped.js'
import { walkFiles } from '../../fs/walk.js'
import { claudeImports, resolveImport } from './claude-imports.js'
import { formatOf, knownRuleFiles, type RuleFormat } from './formats.js'

export interface IngestDocument {
  /** Relative to the workspace root. */
  path: string
  /** The file's text; when given, the path is not read, only recorded. */
  content?: string | undefined
}

export interface SourceDocument {
  /** Workspace-relative posix path. */
  path: string
  format: RuleFormat
  text: string
  /** The CLAUDE.md that imports it with `@path`, when it was read for that reason only. */
  importedBy?: string
  /** `@path` imports of this file that are not in the workspace. */
  missingImports?: string[]
}

/** Claude Code follows imports five levels deep. */
const importDepth = 5

function unknownFormat(field: string, path: string): MkError {
  return new MkError('INVALID_INPUT', `${field}: ${JSON.stringify(path)} is not an agent rules file mk knows`, {
    details: { field, path, hint: `mk reads ${knownRuleFiles}` },
  })
}

function unreadable(field: string, path: string, error: unknown): MkError {
  const reason = isNodeError(error) && error.code === 'ENOENT' ? 'no such file or folder' : error instanceof Error ? error.message : String(error)
  return new MkError('INVALID_INPUT', `${field}: cannot read ${JSON.stringify(path)}: ${reason}`, {
    details: { field, path, hint: 'give a path relative to the workspace root, or pass the text as content' },
  })
}

function tooLarge(field: string, error: FileTooLargeError): MkError {
  return new MkError('INVALID_INPUT', `${field}: ${error.message}`, { details: { field, ...error.details } })
}

async function readText(root: string, path: string, field: string): Promise<string> {
  try {
    return await readRulesText(join(root, path), path)
  } catch (error) {
    if (error instanceof FileTooLargeError) throw tooLarge(field, error)
    throw unreadable(field, path, error)
  }
}

/** The rule files in a folder (`.cursor/rules`, `.clinerules`, or the whole workspace), by their paths. */
async function rulesInFolder(root: string, folder: string, field: string): Promise<SourceDocument[]> {
  const found: SourceDocument[] = []
  for (const file of walkFiles(join(root, folder))) {
    const path = folder === '' ? file : `${folder}/${file}`
    const format = formatOf(path)
    if (format === undefined) continue
    requireInsideWorkspace(root, path, field)
    found.push({ path, format, text: await readText(root, path, field) })
  }
  if (found.length === 0) {
    throw new MkError('INVALID_INPUT', `${field}: the folder ${JSON.stringify(folder || '.')} holds no agent rules file mk knows`, {
      details: { field, path: folder || '.', hint: `mk reads ${knownRuleFiles}` },
    })
  }
  return found
}

async function readOne(root: string, document: IngestDocument, field: string): Promise<SourceDocument[]> {
  if (document.content !== undefined) {
    const path = insideWorkspace(root, document.path)
    if (path === undefined) {
      throw new MkError('INVALID_INPUT', `${field}: ${JSON.stringify(document.path)} is outside the workspace ${root}`, {
        details: { field, path: document.path, hint: 'name the file by its path relative to the workspace root' },
      })
    }
    const format = formatOf(path)
    if (format === undefined) throw unknownFormat(field, document.path)
    // Text given inline is held to the cap of a file read from disk, before anything parses it.
    if (Buffer.byteLength(document.content) > maxRulesFileBytes)
      throw tooLarge(field.replace(/path$/, 'content'), new FileTooLargeError(path, maxRulesFileBytes))
    return [{ path, format, text: document.content }]
  }
  // The workspace root itself (`mk rules ingest .`) is a folder like any other.
  const path = resolve(root, document.path) === resolve(root) ? '' : requireInsideWorkspace(root, document.path, field)
  let isFolder: boolean
  try {
    isFolder = (await stat(join(root, path))).isDirectory()
  } catch (error) {
    throw unreadable(field, document.path, error)
  }
  if (isFolder) return rulesInFolder(root, path, field)
  const format = formatOf(path)
  if (format === undefined) throw unknownFormat(field, document.path)
  return [{ path, format, text: await readText(root, path, field) }]
}

/**
 * The rule files the documents name, read through the path guard; a folder stands for the rule
 * files in it. A file named twice is read once. Fails on the first path that is outside the
 * workspace, unreadable or of no known format, naming its field (`documents[2].path`).
 */
export async function readSourceDocuments(root: string, documents: readonly IngestDocument[]): Promise<SourceDocument[]> {
  const byPath = new Map<string, SourceDocument>()
  for (const [index, document] of documents.entries()) {
    for (const source of await readOne(root, document, `documents[${index}].path`)) if (!byPath.has(source.path)) byPath.set(source.path, source)
  }
  await followImports(root, byPath)
  return [...byPath.values()]
}

/**
 * Read what each CLAUDE.md imports (`@AGENTS.md`), and what those import, as Claude Code does: a
 * CLAUDE.md that only says `@AGENTS.md` means the rules of AGENTS.md. An imported file that is not
 * an agent rules file mk knows (`@docs/testing.md`) is read as part of the Claude rules.
 */
async function followImports(root: string, byPath: Map<string, SourceDocument>): Promise<void> {
  let wave = [...byPath.values()].filter((document) => document.format === 'claude')
  for (let depth = 0; depth < importDepth && wave.length > 0; depth++) {
    const next: SourceDocument[] = []
    for (const importer of wave) {
      for (const target of claudeImports(importer.text)) {
        const path = resolveImport(importer.path, target)
        const inside = path === undefined ? undefined : insideWorkspace(root, path)
        if (inside === undefined || byPath.has(inside)) continue
        // An import reached through a link to elsewhere is not the workspace's to read.
        if (!resolvesWithin([{ path: root, name: 'the workspace' }], join(root, inside))) continue
        let text: string
        try {
          text = await readRulesText(join(root, inside), inside)
        } catch {
          importer.missingImports = [...(importer.missingImports ?? []), target]
          continue
        }
        const imported: SourceDocument = { path: inside, format: formatOf(inside) ?? 'claude', text, importedBy: importer.path }
        byPath.set(inside, imported)
        next.push(imported)
      }
    }
    wave = next
  }
}
