import type { Workspace } from '../config/workspace.js'
import { textForTenant } from '../fs/tenant-text.js'
import { installedModels } from './installed.js'
import { knownModels } from './known-models.js'

/** What a model's publishers measured, for models mk knows. */
export interface PublishedScores {
  mtebRetrieval: number
  scifact?: number
  note: string
}

export interface ModelCatalog {
  /** The model search uses now: bundled, none, or the transformers model. */
  configured: string
  installed: { id: string; folder: string; bytes: number; dimensions: number; selected: boolean; published?: PublishedScores }[]
  /** Well-known models not installed yet. */
  available: { id: string; dimensions: number; published: PublishedScores }[]
}

function publishedOf(id: string): PublishedScores | undefined {
  const known = knownModels.find((model) => model.id === id)
  return known === undefined
    ? undefined
    : { mtebRetrieval: known.mtebRetrieval, ...(known.scifact === undefined ? {} : { scifact: known.scifact }), note: known.note }
}

/** The embedding models pulled into MK_HOME, the one search uses, and the known ones that could be pulled. A served call sees its folders as its tenant names them. */
export async function modelCatalog(workspace: Workspace, served: boolean): Promise<ModelCatalog> {
  const { embedding } = workspace.config.search
  const configured = embedding.provider === 'transformers' ? (embedding.model ?? 'transformers (no model set)') : embedding.provider
  const installed = (await installedModels(workspace.mkHome)).map((model) => {
    const published = publishedOf(model.id)
    return {
      ...model,
      folder: served ? textForTenant(model.folder, workspace) : model.folder,
      selected: embedding.provider === 'transformers' && embedding.model === model.id,
      ...(published === undefined ? {} : { published }),
    }
  })
  const available = knownModels
    .filter((model) => !installed.some((entry) => entry.id === model.id))
    .map((model) => ({
      id: model.id,
      dimensions: model.dimensions,
      published: publishedOf(model.id) ?? { mtebRetrieval: model.mtebRetrieval, note: model.note },
    }))
  return { configured, installed, available }
}
