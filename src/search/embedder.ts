import type { Workspace } from '../config/workspace.js'
import type { EmbeddingProvider } from './embedding/provider.js'

/** The configured embedding provider, or undefined for full text only. Creating it loads no model. */
export async function loadEmbedder(workspace: Workspace): Promise<EmbeddingProvider | undefined> {
  if (workspace.config.search.embedding.provider === 'none') return undefined
  // Until the providers land, every mode searches full text only.
  return undefined
}
