import { join } from 'node:path'
import type { Workspace } from '../config/workspace.js'
import { textForTenant } from '../fs/tenant-text.js'
import { inspectModelFolder } from '../search/embedding/model-folder.js'
import { pullModel, type PulledFile } from './hub-download.js'
import { chooseHubUrl, hubPolicyFrom } from './hub-policy.js'

export interface ModelPullRequest {
  id: string
  revision: string
  /** The hub asked for; the operator's policy (MK_MODEL_HUB_URLS) decides whether it may be used. */
  hubUrl: string | undefined
}

export interface ModelPullPlace {
  workspace: Workspace
  /** The environment of the call (the hub policy reads MK_MODEL_HUB_URLS and the size cap from it). */
  env: Readonly<Record<string, string | undefined>>
  /** A call of mk serve: hubs are restricted and folders are named in the tenant's terms. */
  served: boolean
  progress?: ((event: { phase: string; done: number; total: number | undefined }) => void) | undefined
  signal: AbortSignal
}

export interface PulledModel {
  id: string
  folder: string
  files: PulledFile[]
  dimensions: number
  /** Whether .mkrc already names this model for search. */
  selected: boolean
}

/** Download an embedding model from a hub the policy allows into MK_HOME/models, checked against the hub's checksums. */
export async function pullModelIntoWorkspace(request: ModelPullRequest, place: ModelPullPlace): Promise<PulledModel> {
  const { embedding } = place.workspace.config.search
  const policy = hubPolicyFrom(place.env, place.served)
  const pulled = await pullModel({
    id: request.id,
    revision: request.revision,
    hubUrl: chooseHubUrl(policy, request.hubUrl, embedding.hubUrl),
    maxBytes: policy.maxBytes,
    modelsDir: join(place.workspace.mkHome, 'models'),
    onProgress: (file, done, total) => place.progress?.({ phase: `downloading ${file}`, done, total }),
    signal: place.signal,
  })
  const { dimensions } = inspectModelFolder(pulled.folder)
  // A tenant of mk serve is told where the model is in its own terms, not the server's layout.
  const folder = place.served ? textForTenant(pulled.folder, place.workspace) : pulled.folder
  return { id: request.id, folder, files: pulled.files, dimensions, selected: embedding.provider === 'transformers' && embedding.model === request.id }
}
