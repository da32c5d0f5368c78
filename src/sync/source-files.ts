import { relative, resolve } from 'node:path'
import type { Workspace } from '../config/workspace.js'
import { readRulesText } from '../fs/read-capped.js'
import { toPosix } from '../fs/walk.js'
import type { KnowledgeItem } from '../knowledge/model.js'
import { gitSourceCloneDir, type ResolvedSource } from '../knowledge/sources.js'
import { knowledgePathFilter } from '../knowledge/files.js'
import { hashFolder } from './files.js'
import type { GitSourceConfig } from './mirror-source.js'
import type { FileState, SourceState } from './state.js'

// A source's knowledge files: which exist now (blob ids or content hashes), and parsing one.

export function gitConfigOf(workspace: Workspace, name: string): GitSourceConfig | undefined {
  const config = workspace.config.knowledge.sources.find((source) => source.name === name)
  return config !== undefined && 'url' in config ? config : undefined
}

export async function parseFile(
  workspace: Workspace,
  source: ResolvedSource,
  path: string,
  hash: string,
): Promise<{ entry: FileState; item: KnowledgeItem | undefined }> {
  const absolutePath = resolve(source.directory, path)
  const workspacePath = toPosix(relative(workspace.root, absolutePath))
  let text: string
  try {
    text = await readRulesText(absolutePath, workspacePath)
  } catch (error) {
    return { entry: { hash, error: `${workspacePath}: cannot read file: ${(error as Error).message}` }, item: undefined }
  }
  // Loaded only when a file changed: a sync with nothing new never pays for the markdown parser.
  const { parseKnowledgeFile } = await import('../knowledge/parse.js')
  const { formatProblem } = await import('../knowledge/load.js')
  const parsed = await parseKnowledgeFile({
    path: workspacePath,
    absolutePath,
    source: source.name,
    layer: source.layer,
    text,
    statusMap: workspace.config.knowledge.statusMap,
  })
  const firstError = parsed.problems.find((problem) => problem.severity === 'error')
  if (parsed.item === undefined || firstError !== undefined) {
    return { entry: { hash, error: firstError === undefined ? `${workspacePath}: not a knowledge item` : formatProblem(firstError) }, item: undefined }
  }
  const { item } = parsed
  return { entry: { hash, id: item.id, type: item.type, status: item.status }, item }
}

/**
 * The knowledge files of a source now, path -> blob id. A clone still at the commit of a
 * complete earlier sync has exactly the files recorded then, so git is not even loaded.
 */
export async function currentFiles(
  workspace: Workspace,
  source: ResolvedSource,
  commit: string | undefined,
  previous: SourceState | undefined,
): Promise<Map<string, string>> {
  if (source.kind === 'path' || commit === undefined) return hashFolder(workspace, source.directory)
  const dir = gitConfigOf(workspace, source.name)?.dir ?? ''
  if (previous !== undefined && previous.commit === commit && (previous.dir ?? '') === dir && previous.partial !== true) {
    return new Map(Object.entries(previous.files).map(([path, entry]) => [path, entry.hash]))
  }
  const { listBlobs } = await import('../git/mirror.js')
  const blobs = await listBlobs(gitSourceCloneDir(workspace, source.name), commit, dir)
  const isKnowledge = knowledgePathFilter(workspace, source.directory)
  return new Map([...blobs].filter(([path]) => isKnowledge(path)))
}
