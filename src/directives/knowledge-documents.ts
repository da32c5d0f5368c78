import { createHash } from 'node:crypto'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import type { Workspace } from '../config/workspace.js'
import { toPosix, walkFiles } from '../fs/walk.js'
import type { KnowledgeItem, KnowledgeProblem } from '../knowledge/model.js'
import { resolveSources } from '../knowledge/sources.js'
import type { IndexDocument } from '../search/types.js'
import { directiveExtraction } from './model.js'

// What a search index holds of a workspace's knowledge (items and the directives drawn from them), whichever store keeps the index.

export function knowledgeDocument(item: KnowledgeItem): IndexDocument {
  return {
    id: item.id,
    kind: 'knowledge',
    layer: item.layer,
    title: item.title,
    content: [item.summary ?? '', item.body].filter((part) => part.trim() !== '').join('\n\n'),
    tags: item.tags,
    source: item.source,
    path: item.path,
    updatedAt: item.date === undefined ? 0 : Date.parse(item.date) || 0,
    type: item.type,
    status: item.status,
  }
}

/** A knowledge file's content hash, kept while its size and modification time stay the same. */
const contentHashes = new Map<string, { size: number; mtimeMs: number; hash: string }>()

function contentHash(path: string, size: number, mtimeMs: number): string {
  const known = contentHashes.get(path)
  if (known !== undefined && known.size === size && known.mtimeMs === mtimeMs) return known.hash
  const hash = createHash('sha256').update(readFileSync(path)).digest('hex')
  contentHashes.set(path, { size, mtimeMs, hash })
  return hash
}

/**
 * Every knowledge file's path, size and modification time, hashed: a change anywhere changes it.
 * `portable` signs the files' paths within their sources and their contents instead, so replicas
 * of the PostgreSQL store, each with its own copy of the knowledge, agree on one signature per
 * scope; a file's content is read again only when its size or modification time changes.
 */
export async function knowledgeSignature(workspace: Workspace, options: { portable?: boolean } = {}): Promise<string> {
  const portable = options.portable === true
  const hash = createHash('sha256')
  // Directives store their topics by this vocabulary: a change to it reads the knowledge again.
  hash.update(`rules ${JSON.stringify([workspace.config.rules.topics, workspace.config.rules.layers, directiveExtraction])}\n`)
  const memoryDir = join(workspace.root, workspace.config.memory.dir)
  for (const source of resolveSources(workspace)) {
    hash.update(portable ? `source ${source.name}\n` : `source ${source.name} ${source.directory}\n`)
    if (!existsSync(source.directory)) continue
    const memoryInSource = toPosix(relative(source.directory, memoryDir))
    const files = walkFiles(source.directory, {
      include: (path, isDirectory) => path !== memoryInSource && !path.startsWith(`${memoryInSource}/`) && (isDirectory || path.toLowerCase().endsWith('.md')),
    })
    // Synchronous, like the walk: a thousand stats through libuv's pool cost 13 ms of CPU on every search.
    for (const file of files) {
      const path = `${source.directory}/${file}`
      const info = statSync(path, { throwIfNoEntry: false })
      if (portable) hash.update(`${file} ${info === undefined ? '-' : contentHash(path, info.size, info.mtimeMs)}\n`)
      else hash.update(`${file} ${info?.size ?? -1} ${info?.mtimeMs ?? -1}\n`)
    }
  }
  return hash.digest('hex')
}

/** The documents of the workspace's knowledge: the winning item of each id and its directives; error-level problems of files left out. */
export async function knowledgeDocuments(workspace: Workspace): Promise<{ documents: IndexDocument[]; problems: KnowledgeProblem[] }> {
  const [{ loadKnowledge }, { extractDirectives }, { directiveDocument }, { rulesVocabulary }, { directiveTopics }] = await Promise.all([
    import('../knowledge/load.js'),
    import('./extract.js'),
    import('./stored.js'),
    import('./query.js'),
    import('./rank.js'),
  ])
  const base = await loadKnowledge(workspace)
  // Only the winning item of each id: a project item that overrides a company item replaces its directives too.
  const directives = base.items.flatMap(extractDirectives)
  const vocabulary = rulesVocabulary(workspace.config.rules, directives)
  const documents = [
    ...base.items.map(knowledgeDocument),
    ...directives.map((directive) => directiveDocument(directive, directiveTopics(directive, vocabulary))),
  ]
  return { documents, problems: base.problems.filter((problem) => problem.severity === 'error') }
}
