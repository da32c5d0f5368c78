import { join } from 'node:path'
import type { Workspace } from '../config/workspace.js'
import type { EmbeddingProvider } from './embedding/provider.js'

/** The configured embedding provider with the on-disk query cache, or undefined for full text only. Creating it loads no model. */
export async function loadEmbedder(workspace: Workspace): Promise<EmbeddingProvider | undefined> {
  const [{ createEmbeddingProvider }, { withQueryCache }] = await Promise.all([import('./embedding/create.js'), import('./embedding/query-cache.js')])
  const provider = await createEmbeddingProvider(workspace.config.search.embedding, {
    workspaceRoot: workspace.root,
    modelCacheDir: join(workspace.stateDir, 'models'),
  })
  return provider === undefined ? undefined : withQueryCache(provider, join(workspace.mkHome, 'cache', 'query-vectors'))
}
