import { existsSync } from 'node:fs'
import { isatty } from 'node:tty'
import { Command } from '@oclif/core/command'
import * as Flags from '@oclif/core/flags'
import * as Errors from '@oclif/core/errors'
import { locateWorkspace } from '../../config/locate.js'
import { importPackage } from '../../import-package.js'
import { runtimeEnvFrom } from '../../config/workspace.js'
import { toErrorObject, MkError, type ErrorObject } from '../../errors.js'
import { Resources, type ProgressEvent } from '../../tools/context.js'
import type { AnyTool } from '../../tools/define.js'
import type { DispatchOutcome } from '../../tools/dispatcher.js'
import { hookAnswerTimeoutMs, hookToolNames, localServerAsked, trustedHookAnswer } from './hook-answer.js'
import type { LocalCaller } from './remote-client.js'
import { remoteServerFrom, type RemoteServer } from './remote-server.js'
import { plainStyle } from '../../style.js'
import { processTerminal, renderError, renderOutcome, writeWarning } from './render.js'
import { displayStyle } from './style.js'
import { stripTerminalControls } from './terminal-controls.js'

export interface GlobalFlags {
  json: boolean
  cwd?: string | undefined
}

export interface CallOptions {
  /** Pre-approve an elevated tool (`--yes`). */
  yes?: boolean
  progress?: (event: ProgressEvent) => void
  /** What stdout gets when the call fails, besides the error on stderr (a SARIF log that carries the error). */
  failureOutput?: (error: ErrorObject) => Promise<string>
}

async function askOnTerminal(question: string): Promise<boolean> {
  // Loaded only to ask: readline is a few ms of every command's start-up otherwise.
  const { createInterface } = await importPackage<typeof import('node:readline/promises')>('node:readline/promises')
  const prompt = createInterface({ input: process.stdin, output: process.stderr })
  try {
    const answer = await prompt.question(`${stripTerminalControls(question)} [y/N] `)
    return /^y(es)?$/i.test(answer.trim())
  } finally {
    prompt.close()
  }
}

/** Every mk command: parse flags, call one tool through the dispatcher, print, set the exit code. */
export abstract class MkCommand extends Command {
  static override baseFlags = {
    json: Flags.boolean({ description: 'Print the result (or the error object) as JSON on stdout and nothing else.', helpGroup: 'GLOBAL' }),
    cwd: Flags.string({ description: 'Run as if mk was started in this directory.', helpGroup: 'GLOBAL' }),
  }

  protected async callTool(tool: AnyTool, input: Record<string, unknown>, flags: GlobalFlags, options: CallOptions = {}): Promise<void> {
    const terminal = processTerminal()
    const style = flags.json ? plainStyle : displayStyle(terminal.stdout, terminal.env)
    const warn = (message: string): void => writeWarning(terminal, message)
    const resources = new Resources()
    try {
      const call = dropUndefined(input)
      const remote = remoteServerFrom(process.env)
      const cwd = flags.cwd ?? process.cwd()
      const runtime = runtimeEnvFrom(process.env)
      const runHere = async (): Promise<DispatchOutcome> => {
        // Loaded only here: a call the local server answers never reads or validates the config, nor opens a store.
        const [{ loadWorkspace }, { dispatch }] = await Promise.all([import('../../config/load.js'), import('../../tools/dispatcher.js')])
        return dispatch(tool, call, {
          workspace: await loadWorkspace({ cwd, env: process.env }),
          env: process.env,
          // The shell's folder, not --cwd: a relative path typed on the command line (mk eval --dataset) means what the shell means.
          cwd: process.cwd(),
          runtime,
          style,
          resources,
          warn,
          displayOnly: !flags.json,
          ...(options.progress === undefined || flags.json ? {} : { progress: options.progress }),
          ...(options.yes === true ? { approve: async () => true } : interactive() ? { approve: askOnTerminal } : {}),
        })
      }
      const outcome =
        remote === undefined
          ? ((await runThroughLocalSocket(tool, call, cwd, runtime, warn)) ?? (await runHere()))
          : await runRemotely(remote, tool, call, warn)
      // A machine format (SARIF, JSON) on failure: written as is, it is not text for a person.
      if (!outcome.ok && options.failureOutput !== undefined)
        terminal.stdout.write(`${await options.failureOutput(outcome.error)}
`)
      process.exitCode = renderOutcome(outcome, flags.json, terminal)
    } catch (error) {
      const errorObject = toErrorObject(error)
      if (options.failureOutput !== undefined)
        terminal.stdout.write(`${await options.failureOutput(errorObject)}
`)
      renderError(errorObject, flags.json, terminal)
      process.exitCode = 2
    } finally {
      await resources.closeAll()
    }
  }

  /** Whether the raw arguments ask for JSON, for errors raised before or while flags are parsed. */
  protected jsonRequested(): boolean {
    return this.argv.includes('--json')
  }

  /** Flag and argument errors from oclif become the standard error shape: one line, exit 2, no stack. */
  protected override async catch(error: Error & { exitCode?: number }): Promise<void> {
    const json = this.jsonRequested()
    const terminal = processTerminal()
    if (error instanceof Errors.CLIError || error instanceof MkError) {
      // oclif spreads one message over several lines and ends with a pointer to --help, which the hint gives.
      const message = error.message
        .replace(/\s*See more help with --help\s*$/, '')
        .replace(/\s+/g, ' ')
        .trim()
      const mkError =
        error instanceof MkError ? error : new MkError('INVALID_INPUT', message, { details: { hint: `see mk ${this.id?.replaceAll(':', ' ') ?? ''} --help` } })
      renderError(toErrorObject(mkError), json, terminal)
    } else {
      renderError(toErrorObject(error), json, terminal)
    }
    process.exitCode = 2
  }
}

/**
 * Commands a terminal runs often and that answer faster from a warm server:
 * when the workspace's `mk serve --socket .mk/serve.sock` runs, they call it.
 */
const acceleratedTools: ReadonlySet<string> = new Set(['memory_search', 'knowledge_query', 'rules_query_directives', 'rules_detect_context', 'rules_evaluate'])

// Loaded by the calls that go to a server: node:http and node:net cost every other command their start-up.
const remoteClient = () => import('./remote-client.js')

/** Asked of the descriptors, not of process.stdin: its first use builds a stream (a socket on a pipe) that a command which never reads stdin does not need. */
function interactive(): boolean {
  return isatty(0) && isatty(2)
}

/** MK_REMOTE: the call runs in that mk server; its warnings are printed here as local ones are. */
async function runRemotely(server: RemoteServer, tool: AnyTool, input: Record<string, unknown>, warn: (message: string) => void): Promise<DispatchOutcome> {
  const { callRemoteTool } = await remoteClient()
  const outcome = await callRemoteTool(server, tool.name, input)
  for (const message of outcome.warnings) warn(message)
  return outcome
}

/**
 * Through the workspace's local `mk serve --socket` when the tool is worth it and one answers;
 * undefined otherwise. The config is not read here: the server has read it.
 */
async function runThroughLocalSocket(
  tool: AnyTool,
  input: Record<string, unknown>,
  cwd: string,
  runtime: LocalCaller,
  warn: (message: string) => void,
): Promise<DispatchOutcome | undefined> {
  const checked = hookToolNames.has(tool.name)
  // A folder that does not exist is reported by the local run, not answered by the server of a folder above it.
  if (!(acceleratedTools.has(tool.name) || checked) || !existsSync(cwd)) return undefined
  // The hook's fast path asked the server already and did not take its answer.
  if (checked && localServerAsked()) return undefined
  const [{ localSocketPath }, { callSocketTool }] = await Promise.all([import('../http/socket.js'), remoteClient()])
  const socket = localSocketPath(locateWorkspace(cwd).stateDir)
  const viaSocket = await callSocketTool(socket, tool.name, input, runtime, checked ? { timeoutMs: hookAnswerTimeoutMs } : {})
  if (checked && !trustedHookAnswer(viaSocket)) return undefined
  for (const message of viaSocket?.warnings ?? []) warn(message)
  return viaSocket
}

function dropUndefined(input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined))
}
