import { existsSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import { layerRank } from '../config/layers.js'
import type { Workspace } from '../config/workspace.js'
import { MkError } from '../errors.js'
import { FileTooLargeError, readRulesText } from '../fs/read-capped.js'
import { toPosix } from '../fs/walk.js'
import { listKnowledgeFiles } from './files.js'
import type { KnowledgeItem, KnowledgeProblem } from './model.js'
import { parseKnowledgeFile } from './parse.js'
import { resolveNumberedReferences } from './references.js'
import { resolveSources, type ResolvedSource } from './sources.js'

export interface KnowledgeBase {
  /** One item per id: the most specific layer wins. */
  items: KnowledgeItem[]
  /** Every parsed item of every layer, shadowed ones included (constraints of every layer apply). */
  allItems: KnowledgeItem[]
  /** For an id, the items of less specific layers that the winner hides. */
  shadowed: ReadonlyMap<string, KnowledgeItem[]>
  problems: KnowledgeProblem[]
  sources: ResolvedSource[]
  filesRead: number
}

async function listSourceFiles(workspace: Workspace, source: ResolvedSource, problems: KnowledgeProblem[]): Promise<string[]> {
  const shown = toPosix(relative(workspace.root, source.directory)) || '.'
  if (!existsSync(source.directory)) {
    problems.push({
      file: shown,
      line: 0,
      code: 'missing-source',
      message:
        source.kind === 'git'
          ? `knowledge source "${source.name}" has not been synced yet (run mk sync)`
          : `knowledge folder ${shown} of source "${source.name}" does not exist (create it with mk init, or fix knowledge.sources in .mkrc)`,
      severity: source.kind === 'git' ? 'warning' : 'error',
    })
    return []
  }
  const files = listKnowledgeFiles(workspace, source.directory)
  return files.map((file) => resolve(source.directory, file))
}

function resolveLayers(parsed: KnowledgeItem[], problems: KnowledgeProblem[]): Pick<KnowledgeBase, 'items' | 'shadowed'> {
  const byId = new Map<string, KnowledgeItem[]>()
  for (const item of parsed) byId.set(item.id, [...(byId.get(item.id) ?? []), item])
  const items: KnowledgeItem[] = []
  const shadowed = new Map<string, KnowledgeItem[]>()
  for (const [id, candidates] of byId) {
    const ordered = [...candidates].sort((a, b) => layerRank(a.layer) - layerRank(b.layer) || a.path.localeCompare(b.path))
    const [winner, ...rest] = ordered
    if (winner === undefined) continue
    for (const other of rest.filter((candidate) => candidate.layer === winner.layer)) {
      problems.push({
        file: other.path,
        line: 1,
        code: 'duplicate-id',
        message: `duplicate id "${id}": also defined in ${winner.path} (layer ${winner.layer})`,
        severity: 'error',
      })
    }
    items.push(winner)
    const hidden = rest.filter((candidate) => candidate.layer !== winner.layer)
    if (hidden.length > 0) shadowed.set(id, hidden)
  }
  items.sort((a, b) => a.id.localeCompare(b.id))
  return { items, shadowed }
}

/** Read and parse every knowledge file of every configured source. Never throws on a bad file: it becomes a problem. */
export async function loadKnowledge(workspace: Workspace): Promise<KnowledgeBase> {
  const sources = resolveSources(workspace)
  const problems: KnowledgeProblem[] = []
  const parsed: KnowledgeItem[] = []
  let filesRead = 0
  for (const source of sources) {
    const files = await listSourceFiles(workspace, source, problems)
    const results = await Promise.all(
      files.map(async (absolutePath) => {
        const path = toPosix(relative(workspace.root, absolutePath))
        try {
          const text = await readRulesText(absolutePath, path)
          return await parseKnowledgeFile({
            path,
            absolutePath,
            source: source.name,
            layer: source.layer,
            text,
            statusMap: workspace.config.knowledge.statusMap,
          })
        } catch (error) {
          // Like a file that cannot be read, one too large to read may state constraints: `knowledge check` stops on it.
          const problem: KnowledgeProblem = {
            file: path,
            line: 0,
            code: error instanceof FileTooLargeError ? 'too-large' : 'unreadable',
            message: error instanceof FileTooLargeError ? error.reason : `cannot read file: ${(error as Error).message}`,
            severity: 'error',
            hidesConstraints: true,
          }
          return { item: undefined, problems: [problem] }
        }
      }),
    )
    filesRead += files.length
    for (const result of results) {
      problems.push(...result.problems)
      if (result.item !== undefined) parsed.push(result.item)
    }
  }
  resolveNumberedReferences(parsed)
  return { ...resolveLayers(parsed, problems), allItems: parsed, problems, sources, filesRead }
}

export function formatProblem(problem: KnowledgeProblem): string {
  return `${problem.file}${problem.line > 0 ? `:${problem.line}` : ''}: ${problem.message}`
}

function problemsError(problems: readonly KnowledgeProblem[], hint: string): MkError {
  const [first] = problems
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})` : ''
  const code = first?.code === 'missing-source' ? 'NOT_FOUND' : 'INVALID_INPUT'
  return new MkError(code, `${first === undefined ? '' : formatProblem(first)}${more}`, { details: { problems, hint } })
}

/**
 * Reading tools answer from every file that loaded. A missing source folder still fails them (there is
 * nothing to read); the errors of single files are returned, for the tool to report beside its answer.
 */
export function problemsToReport(base: Pick<KnowledgeBase, 'problems'>): KnowledgeProblem[] {
  const missing = base.problems.filter((problem) => problem.code === 'missing-source' && problem.severity === 'error')
  if (missing.length > 0) throw problemsError(missing, 'create the folder or fix knowledge.sources in .mkrc')
  return base.problems.filter((problem) => problem.severity === 'error')
}

/** `knowledge check` passes only if no constraint can be hidden: an unreadable file or a broken constraint stops it. */
export function assertConstraintsReadable(base: Pick<KnowledgeBase, 'problems'>): void {
  const blocking = base.problems.filter((problem) => problem.severity === 'error' && (problem.hidesConstraints === true || problem.code === 'missing-source'))
  if (blocking.length > 0) throw problemsError(blocking, 'run mk knowledge lint to see every problem')
}
