import { join, resolve } from 'node:path'
import type { KnowledgeLayer } from '../config/layers.js'
import type { Workspace } from '../config/workspace.js'

export interface ResolvedSource {
  name: string
  layer: KnowledgeLayer
  /** Absolute folder the source's files are read from. */
  directory: string
  kind: 'path' | 'git'
}

/** Where each configured source lives on disk: a local path, or the clone of a git source under MK_HOME. */
export function resolveSources(workspace: Workspace): ResolvedSource[] {
  return workspace.config.knowledge.sources.map((source) =>
    'path' in source
      ? { name: source.name, layer: source.layer, directory: resolve(workspace.root, source.path), kind: 'path' as const }
      : { name: source.name, layer: source.layer, directory: join(gitSourceCloneDir(workspace, source.name), source.dir ?? ''), kind: 'git' as const },
  )
}

export function gitSourceCloneDir(workspace: Workspace, name: string): string {
  return join(workspace.mkHome, 'sources', name)
}
