import { locateWorkspace } from '../../config/locate.js'
import { runtimeEnvFrom } from '../../config/workspace.js'
import { localSocketPath } from '../http/socket.js'
import { callSocketTool } from './remote-client.js'
import { processTerminal, renderOutcome, writeWarning } from './render.js'

/** The flags of `mk memory search` that take one value each, and the tool's input field each fills. */
const singleValued = {
  limit: 'limit',
  threshold: 'threshold',
  agent: 'agent',
  session: 'session',
  'consumer-agent': 'consumer_agent_id',
  'consumer-team': 'consumer_team_id',
} as const
/** Its repeatable flags. */
const repeatable = { layer: 'layers', tag: 'tags', tier: 'tiers' } as const

type SingleFlag = keyof typeof singleValued
type RepeatableFlag = keyof typeof repeatable

const isSingle = (name: string): name is SingleFlag => Object.hasOwn(singleValued, name)
const isRepeatable = (name: string): name is RepeatableFlag => Object.hasOwn(repeatable, name)

/** A value the command would read as written: not empty and not the next flag. */
const plainValue = (value: string | undefined): value is string => value !== undefined && value !== '' && !value.startsWith('-')

/** `--limit` as oclif's integer flag reads it, `--threshold` as the command's Number(); undefined for a value mk itself must reject. */
function typedValue(name: SingleFlag, value: string): string | number | undefined {
  if (name === 'limit') return /^\d+$/.test(value) ? Number(value) : undefined
  if (name === 'threshold') return Number.isFinite(Number(value)) ? Number(value) : undefined
  return value
}

/**
 * The memory_search input and --json of `mk memory search <query> [flags]`, or undefined for
 * anything else (--help, --cwd, a flag it does not know, a value mk would reject, no query or two):
 * mk's own parser answers those, with its errors.
 */
export function searchInvocation(argv: readonly string[]): { input: Record<string, unknown>; json: boolean } | undefined {
  if (argv[0] !== 'memory' || argv[1] !== 'search') return undefined
  const input: Record<string, unknown> = {}
  const lists: Partial<Record<RepeatableFlag, string[]>> = {}
  const queries: string[] = []
  let json = false
  for (let index = 2; index < argv.length; index++) {
    const argument = argv[index] ?? ''
    if (argument === '--json') {
      json = true
      continue
    }
    if (!argument.startsWith('-')) {
      queries.push(argument)
      continue
    }
    const [, name = '', inline] = /^--([a-z-]+)(?:=(.*))?$/s.exec(argument) ?? []
    const value = inline ?? argv[++index]
    if (!plainValue(value)) return undefined
    if (isRepeatable(name)) {
      lists[name] = [...(lists[name] ?? []), value]
      continue
    }
    if (!isSingle(name) || singleValued[name] in input) return undefined
    const typed = typedValue(name, value)
    if (typed === undefined) return undefined
    input[singleValued[name]] = typed
  }
  const [query] = queries
  if (queries.length !== 1 || query === undefined || query === '') return undefined
  for (const [flag, values] of Object.entries(lists) as [RepeatableFlag, string[]][]) input[repeatable[flag]] = values
  return { input: { query, ...input }, json }
}

/**
 * `mk memory search` answered by the workspace's local `mk serve --socket` before mk itself is
 * loaded, as bin/run.js asks for the agent hooks (hook-fast-path.ts): the bundle's start-up was
 * most of a search through the socket (DESIGN.md's budget is 150 ms). False when it did not
 * answer, for any reason (no server, MK_REMOTE set, an invocation it does not read): mk then runs
 * the command as always, which may still ask the server.
 */
export async function answerSearchFromLocalServer(argv: readonly string[]): Promise<boolean> {
  const invocation = searchInvocation(argv)
  if (invocation === undefined || (process.env.MK_REMOTE ?? '') !== '') return false
  const socket = localSocketPath(locateWorkspace(process.cwd()).stateDir)
  const outcome = await callSocketTool(socket, 'memory_search', invocation.input, runtimeEnvFrom(process.env))
  if (outcome === undefined) return false
  const terminal = processTerminal()
  for (const message of outcome.warnings) writeWarning(terminal, message)
  process.exitCode = renderOutcome(outcome, invocation.json, terminal)
  return true
}
