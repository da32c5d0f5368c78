import { join, resolve } from 'node:path'
import type { MemoryLayer } from '../config/layers.js'
import type { Workspace } from '../config/workspace.js'
import { MkError } from '../errors.js'
import { requireResolvesWithin, writableFolders } from '../fs/path-guard.js'
import { resolveSources } from '../knowledge/sources.js'

/** Who is asking: agent and session memories are partitioned by these ids. */
export interface MemoryIdentity {
  agentId: string | undefined
  sessionId: string | undefined
  /**
   * A team server's caller: the user and session layers are its agent's own
   * (many agents share the server's MK_HOME), and a caller without an agent has
   * neither. Absent for the CLI, where the user layer is the machine user's.
   */
  perAgent?: boolean
}

/** One folder of memory files: a layer, or one partition of the agent or session layer. */
export interface MemoryFolder {
  layer: MemoryLayer
  /** Stable name of the folder, recorded in the index as the documents' source: `user`, `agent/alice`, `team/platform`. */
  key: string
  dir: string
  /** Private folders live under MK_HOME, a git repository where each change is a commit. */
  private: boolean
  owner: string | undefined
}

const partitionId = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/

function checkPartition(kind: 'agent' | 'session', id: string): string {
  if (!partitionId.test(id)) {
    throw new MkError('INVALID_INPUT', `${kind} id "${id}" is not usable as a folder name: use letters, digits, ".", "_" or "-" (at most 100)`, {
      details: { field: kind },
    })
  }
  return id
}

function memoryHomeDir(workspace: Workspace): string {
  return join(workspace.mkHome, 'memory')
}

/** Every memory folder visible from this workspace and identity, most specific layer first. */
export function visibleFolders(workspace: Workspace, identity: MemoryIdentity): MemoryFolder[] {
  const home = memoryHomeDir(workspace)
  const folders: MemoryFolder[] = []
  const agentId = identity.agentId === undefined ? undefined : checkPartition('agent', identity.agentId)
  if (agentId !== undefined) folders.push({ layer: 'agent', key: `agent/${agentId}`, dir: join(home, 'agent', agentId), private: true, owner: agentId })
  if (identity.perAgent === true) {
    // Beside, not inside, the agent's folder: a folder's memories are the files directly in it.
    if (agentId !== undefined && identity.sessionId !== undefined) {
      const id = checkPartition('session', identity.sessionId)
      folders.push({ layer: 'session', key: `session/${agentId}/${id}`, dir: join(home, 'agent-session', agentId, id), private: true, owner: id })
    }
    if (agentId !== undefined) folders.push({ layer: 'user', key: `user/${agentId}`, dir: join(home, 'agent-user', agentId), private: true, owner: undefined })
  } else {
    if (identity.sessionId !== undefined) {
      const id = checkPartition('session', identity.sessionId)
      folders.push({ layer: 'session', key: `session/${id}`, dir: join(home, 'session', id), private: true, owner: id })
    }
    folders.push({ layer: 'user', key: 'user', dir: join(home, 'user'), private: true, owner: undefined })
  }
  const projectDir = resolve(workspace.root, workspace.config.memory.dir)
  requireResolvesWithin([{ path: workspace.root, name: 'the workspace' }], projectDir, '.mkrc memory.dir')
  folders.push({ layer: 'project', key: 'project', dir: projectDir, private: false, owner: undefined })
  for (const source of resolveSources(workspace)) {
    if (source.layer === 'project') continue
    folders.push({ layer: source.layer, key: `${source.layer}/${source.name}`, dir: join(source.directory, 'memory'), private: false, owner: undefined })
  }
  return folders
}

/** The visible folders of these layers, or every visible folder when no layers are asked for. */
export function visibleFoldersOfLayers(workspace: Workspace, identity: MemoryIdentity, layers: readonly MemoryLayer[] | undefined): MemoryFolder[] {
  return visibleFolders(workspace, identity).filter((folder) => layers === undefined || layers.includes(folder.layer))
}

/** Refuses a folder outside the workspace and MK_HOME: a local knowledge source may be read from anywhere, but mk writes only there. */
export function requireWritableFolder(workspace: Workspace, folder: MemoryFolder): void {
  requireResolvesWithin(writableFolders(workspace.root, workspace.mkHome), folder.dir, `the ${folder.key} memory folder`)
}

/** The folder a new memory of this layer is written to, or a clear error saying why there is none. */
export function folderForLayer(workspace: Workspace, identity: MemoryIdentity, layer: MemoryLayer): MemoryFolder {
  const folder = visibleFolders(workspace, identity).find((candidate) => candidate.layer === layer)
  if (folder !== undefined) return folder
  if (identity.perAgent === true && identity.agentId === undefined && (layer === 'user' || layer === 'session' || layer === 'agent')) {
    throw new MkError('FORBIDDEN', `on this team server the ${layer} layer belongs to an agent, and this credential carries no agent_id`, {
      details: { reason: 'no_agent', field: 'layer', hint: 'write to a shared layer (project) or use a credential that carries agent_id' },
    })
  }
  if (layer === 'agent' || layer === 'session') {
    const flag = layer === 'agent' ? '--agent ID or MK_AGENT_ID' : '--session ID or MK_SESSION_ID'
    throw new MkError('INVALID_INPUT', `the ${layer} layer needs an id: pass ${flag}`, { details: { field: 'layer', hint: `set ${flag}` } })
  }
  throw new MkError('INVALID_INPUT', `no knowledge source provides the ${layer} layer, so there is nowhere to keep ${layer} memories`, {
    details: { field: 'layer', hint: `add a source with layer: ${layer} to knowledge.sources in .mkrc` },
  })
}

/**
 * The folder a key names (`project`, `user`, `agent/alice`, `session/s1`, `user/alice` and
 * `session/alice/s1` of a team server's agents, `team/platform`), as visibleFolders places it;
 * undefined for a key no identity here sees (a source the workspace does not configure).
 */
export function folderOfKey(workspace: Workspace, key: string): MemoryFolder | undefined {
  const parts = key.split('/')
  const identities: MemoryIdentity[] = [{ agentId: undefined, sessionId: undefined }]
  if (parts[0] === 'agent' && parts.length === 2) identities.push({ agentId: parts[1], sessionId: undefined })
  if (parts[0] === 'session' && parts.length === 2) identities.push({ agentId: undefined, sessionId: parts[1] })
  if (parts[0] === 'user' && parts.length === 2) identities.push({ agentId: parts[1], sessionId: undefined, perAgent: true })
  if (parts[0] === 'session' && parts.length === 3) identities.push({ agentId: parts[1], sessionId: parts[2], perAgent: true })
  return identities.flatMap((identity) => visibleFolders(workspace, identity)).find((folder) => folder.key === key)
}
