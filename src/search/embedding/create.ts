import { join } from 'node:path'
import type { Config } from '../../config/schema.js'
import { MkError } from '../../errors.js'
import { createBundledProvider } from './bundled.js'
import { locateModel } from './model-folder.js'
import type { EmbeddingProvider } from './provider.js'
import { createTransformersProvider, fetchHubDimensions } from './transformers.js'

export type EmbeddingSettings = Config['search']['embedding']

export interface EmbeddingProviderOptions {
  /** Relative model folders are resolved against it. */
  workspaceRoot: string
  /** Where downloaded models are kept; default `<workspace>/.mk/models`. */
  modelCacheDir?: string
  /** Where `mk model pull` puts models: `$MK_HOME/models`. */
  pulledModelsDir?: string
}

/**
 * The provider the config asks for, or undefined for `none` (full text only).
 * Cheap: no runtime is imported and no model loaded until the first `embed`,
 * except that a hub model not yet downloaded has its config.json fetched here.
 * A missing or wrong model folder is an INVALID_INPUT naming the folder.
 */
export async function createEmbeddingProvider(settings: EmbeddingSettings, options: EmbeddingProviderOptions): Promise<EmbeddingProvider | undefined> {
  switch (settings.provider) {
    case 'none':
      return undefined
    case 'bundled':
      return createBundledProvider()
    case 'openai-compatible': {
      const missing = (['baseURL', 'model', 'dimensions'] as const).filter((field) => settings[field] === undefined)
      if (missing.length > 0 || settings.baseURL === undefined || settings.model === undefined || settings.dimensions === undefined) {
        throw new MkError(
          'INVALID_INPUT',
          `search.embedding.provider openai-compatible needs ${missing.map((field) => `search.embedding.${field}`).join(', ')} in .mkrc`,
          {
            details: {
              field: `search.embedding.${missing[0] ?? 'baseURL'}`,
              hint: 'e.g. baseURL: http://127.0.0.1:11434/v1, model: nomic-embed-text, dimensions: 768',
            },
          },
        )
      }
      const { createOpenAiCompatibleProvider } = await import('./openai-compatible.js')
      return createOpenAiCompatibleProvider({
        baseURL: settings.baseURL,
        model: settings.model,
        dimensions: settings.dimensions,
        apiKeyEnv: settings.apiKeyEnv,
        timeoutMs: settings.timeoutMs,
      })
    }
    case 'transformers': {
      const location = locateModel(settings.model, {
        workspaceRoot: options.workspaceRoot,
        cacheDir: options.modelCacheDir ?? join(options.workspaceRoot, '.mk', 'models'),
        pulledDir: options.pulledModelsDir,
        allowDownload: settings.allowDownload,
      })
      const dimensions = location.kind === 'folder' ? location.dimensions : await fetchHubDimensions(location)
      return createTransformersProvider(location, dimensions, { query: settings.queryPrefix, document: settings.documentPrefix })
    }
  }
}
