import { resolve } from 'node:path'
import { loadWorkspace } from '../../config/load.js'
import { runtimeEnvFrom } from '../../config/workspace.js'
import { Resources } from '../../tools/context.js'
import { setEmbeddingThread } from '../../search/embedding/bundled.js'
import { readPackageInfo } from '../../tools/generate/project.js'
import { plainStyle } from '../../style.js'
import { createToolHost } from './tool-host.js'
import { listsOutputSchemas, toolsForProfile, type McpProfile } from '../../tools/catalog/profiles.js'
import { registeredTools } from '../../tools/catalog/registered.js'

export interface McpServeOptions {
  cwd: string
  env: NodeJS.ProcessEnv
  profile: McpProfile
  /** Same as MK_READ_ONLY=1: every tool above read_only is refused. */
  readOnly: boolean
}

const instructions = `mk holds this project's knowledge (ADRs, policies and rules, some with machine-checked constraints) and memories (short facts in layers).
Before proposing a design or adding a dependency, search the knowledge and check it; when you learn a durable fact, store it as a memory; search memories by meaning before asking the user again.
Errors are JSON objects with an errorCode; INVALID_INPUT lists the fields to fix.`

/** `mk mcp`: the registered tools of one profile over stdio, until the client disconnects. */
export async function serveMcp(options: McpServeOptions): Promise<void> {
  // Questions embed on a thread of their own, beside the search's full text: the server lives for many searches.
  setEmbeddingThread(true)
  const workspace = await loadWorkspace({ cwd: options.cwd, env: options.env })
  const runtime = runtimeEnvFrom(options.env)
  const registered = await registeredTools()
  const tools = toolsForProfile(registered, options.profile)
  const host = createToolHost(
    tools,
    {
      workspace,
      env: options.env,
      cwd: resolve(options.cwd),
      runtime: { ...runtime, readOnly: runtime.readOnly || options.readOnly },
      style: plainStyle,
      resources: new Resources(),
    },
    // The core profile starts small; tools_search loads any other registered tool into the session.
    { outputSchemas: listsOutputSchemas(options.profile), loadable: options.profile === 'core' ? registered : tools },
  )
  const { serveStdio } = await import('./server.js')
  const pkg = await readPackageInfo()
  await serveStdio(host, { name: pkg.name, version: pkg.version, instructions })
}
