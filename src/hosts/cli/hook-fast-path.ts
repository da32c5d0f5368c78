import { existsSync } from 'node:fs'
import { locateWorkspace } from '../../config/locate.js'
import { runtimeEnvFrom } from '../../config/workspace.js'
import { localSocketPath } from '../http/socket.js'
import { hookAnswerTimeoutMs, noteLocalServerAsked, trustedHookAnswer } from './hook-answer.js'
import { hookProjectFolder, type HookAgent } from './hook-input.js'
import { readJsonObjectFile, readStdin } from './json-input.js'
import { callSocketTool } from './remote-client.js'
import { processTerminal, renderOutcome, writeWarning } from './render.js'

interface HookFlags {
  json: boolean
  cwd?: string
  context?: string
  agent?: string
  team?: string
}

const valueFlags = new Set(['cwd', 'context', 'agent', 'team'])

/** The flags of `mk hook claude|cursor`, or undefined for anything else (--help, a typo): mk's own parser answers those. */
function hookFlags(argv: readonly string[]): HookFlags | undefined {
  const flags: HookFlags = { json: false }
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] ?? ''
    if (argument === '--json') {
      flags.json = true
      continue
    }
    const [, name = '', inline] = /^--([a-z]+)(?:=(.*))?$/s.exec(argument) ?? []
    if (!valueFlags.has(name)) return undefined
    const value = inline ?? argv[++index]
    if (value === undefined || value === '') return undefined
    flags[name as 'cwd' | 'context' | 'agent' | 'team'] = value
  }
  return flags
}

function objectOf(raw: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(raw)
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/**
 * `mk hook claude|cursor` answered by the workspace's local `mk serve --socket` before mk itself is
 * loaded: bin/run.js runs this small bundle first (scripts/bundle.ts), which reads the hook input,
 * asks the server and prints its answer as mk would. False when it did not answer, for any reason
 * (no server, a flag it does not know, input mk will reject, a server that misbehaves): mk then
 * runs the command as always, with the same standard input (readStdin keeps it).
 */
export async function answerHookFromLocalServer(argv: readonly string[]): Promise<boolean> {
  const agent: HookAgent | undefined = argv[0] === 'hook' && (argv[1] === 'claude' || argv[1] === 'cursor') ? argv[1] : undefined
  const flags = agent === undefined ? undefined : hookFlags(argv.slice(2))
  if (agent === undefined || flags === undefined) return false
  const event = objectOf(await readStdin())
  if (event === undefined) return false
  const context = flags.context === undefined ? {} : await readJsonObjectFile(flags.context, '--context', '').catch(() => undefined)
  if (context === undefined) return false
  const cwd = flags.cwd ?? hookProjectFolder(agent, event, process.env) ?? process.cwd()
  if (!existsSync(cwd)) return false
  const input = {
    event,
    context,
    ...(flags.agent === undefined ? {} : { agent_id: flags.agent }),
    ...(flags.team === undefined ? {} : { team_id: flags.team }),
  }
  const socket = localSocketPath(locateWorkspace(cwd).stateDir)
  noteLocalServerAsked()
  const outcome = await callSocketTool(socket, `hook_${agent}`, input, runtimeEnvFrom(process.env), { timeoutMs: hookAnswerTimeoutMs })
  if (!trustedHookAnswer(outcome)) return false
  const terminal = processTerminal()
  for (const message of outcome.warnings) writeWarning(terminal, message)
  process.exitCode = renderOutcome(outcome, flags.json, terminal)
  return true
}
