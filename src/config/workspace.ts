import { gitIdentity, type GitIdentity } from '../git/identity.js'
import type { ProvenCaller } from './credential.js'
import { resolve } from 'node:path'
import type { Config } from './schema.js'

/** Everything a tool needs to know about where it runs. Paths are absolute. */
export interface Workspace {
  /** The folder holding `.mkrc`, else the git root, else the working directory. */
  root: string
  /** The config file in use, if any. */
  configPath: string | undefined
  config: Config
  /** Private state: agent/session/user memories, cloned sources. Default `~/.mk`. */
  mkHome: string
  /** Derived state of this workspace (index, sync state); gitignored. */
  stateDir: string
}

export interface RuntimeEnv {
  readOnly: boolean
  logJson: boolean
  agentId: string | undefined
  sessionId: string | undefined
  /** MK_TEAM_ID: the team whose private memories this agent may read. */
  teamId: string | undefined
  /** MK_ADMIN_TOKEN: who may use debug channels (memory_recall's embeddings). */
  adminToken: string | undefined
  /** MK_ENV or NODE_ENV is production: debug channels need the admin token. */
  production: boolean
  /** GIT_INDEX_FILE, absolute: git points hooks at the index a commit is about to record (`git commit -a`, `git commit <path>`). */
  gitIndexFile: string | undefined
  /** Who mk's own commits (the $MK_HOME history) name: the user's git identity, when configured. */
  author: GitIdentity | undefined
  /** What a team server caller's credential proved (role, agent, team); undefined for a local caller. */
  credential: ProvenCaller | undefined
  /**
   * The call came over the network to `mk serve` from a tenant: every path a tool
   * takes is confined to the tenant's workspace, operator allow-lists apply, and
   * errors name workspace-relative paths only. False in the CLI, MCP and on the local socket.
   */
  served: boolean
}

export function runtimeEnvFrom(env: NodeJS.ProcessEnv): RuntimeEnv {
  const gitIndexFile = nonEmpty(env.GIT_INDEX_FILE)
  return {
    readOnly: asksReadOnly(env.MK_READ_ONLY) || asksReadOnly(env.READ_ONLY),
    logJson: env.MK_LOG === 'json',
    agentId: nonEmpty(env.MK_AGENT_ID),
    sessionId: nonEmpty(env.MK_SESSION_ID),
    teamId: nonEmpty(env.MK_TEAM_ID),
    adminToken: nonEmpty(env.MK_ADMIN_TOKEN),
    production: [env.MK_ENV, env.NODE_ENV].some((value) => value?.trim().toLowerCase() === 'production'),
    gitIndexFile: gitIndexFile === undefined ? undefined : resolve(gitIndexFile),
    author: gitIdentity(env),
    credential: undefined,
    served: false,
  }
}

/** Fails closed: every value but an explicit no (0/false/no/off, any case, spaces ignored) means read-only; unset or empty means writable. */
function asksReadOnly(value: string | undefined): boolean {
  const word = value?.trim().toLowerCase() ?? ''
  return word !== '' && !['0', 'false', 'no', 'off'].includes(word)
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value
}
