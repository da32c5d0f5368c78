import { join } from 'node:path'
import type { Workspace } from '../config/workspace.js'
import type { EmbeddingProvider } from './embedding/provider.js'

/** The configured embedding provider, or undefined for full text only. Creating it loads no model. */
export async function loadEmbedder(workspace: Workspace): Promise<EmbeddingProvider | undefined> {
  const { createEmbeddingProvider } = await import('./embedding/create.js')
  return createEmbeddingProvider(workspace.config.search.embedding, { workspaceRoot: workspace.root, modelCacheDir: join(workspace.stateDir, 'models') })
}
