import { existsSync } from 'node:fs'
import { request } from 'node:http'
import { connect } from 'node:net'
import { MkError, errorCodes, toErrorObject, type ErrorObject } from '../../errors.js'
import type { Artifact } from '../../tools/artifacts.js'
import type { DispatchOutcome } from '../../tools/dispatcher.js'
import { outcomeMediaType, toolRoutePath } from '../http/routes.js'
import type { RemoteServer } from './remote-server.js'

interface RemoteSuccess {
  output: unknown
  display: string
  exitCode: 0 | 1 | 2
  warnings: string[]
  /** Absent from a server older than artifacts. */
  artifacts?: unknown
}

/** An artifact as the server reported it; checked by hand, as zod is not loaded on this path. */
function isArtifact(value: unknown): value is Artifact {
  const candidate = value as Partial<Artifact> | null
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    ['file', 'folder', 'memory', 'knowledge_item'].includes(candidate.kind ?? '') &&
    ['created', 'modified', 'deleted'].includes(candidate.action ?? '')
  )
}

function isErrorObject(body: unknown): body is ErrorObject {
  const candidate = body as Partial<ErrorObject> | null
  return typeof candidate === 'object' && candidate !== null && candidate.success === false && (errorCodes as readonly unknown[]).includes(candidate.errorCode)
}

function isSuccess(body: unknown): body is RemoteSuccess {
  const candidate = body as Partial<RemoteSuccess> | null
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.display === 'string' &&
    [0, 1, 2].includes(candidate.exitCode ?? -1) &&
    Array.isArray(candidate.warnings)
  )
}

/** What an answer of `mk serve` means as a dispatch outcome; a body mk does not understand is a PROVIDER_ERROR naming the server. */
function outcomeOf(status: number, body: unknown, where: string): DispatchOutcome {
  const ok = status >= 200 && status < 300
  if (ok && isSuccess(body)) {
    const artifacts = Array.isArray(body.artifacts) ? body.artifacts.filter(isArtifact) : []
    return { ok: true, output: body.output, display: body.display, exitCode: body.exitCode, warnings: body.warnings, artifacts }
  }
  if (!ok && isErrorObject(body)) return { ok: false, error: body, warnings: [] }
  return {
    ok: false,
    error: toErrorObject(
      new MkError('PROVIDER_ERROR', `the mk server at ${where} answered HTTP ${status} with a body mk does not understand`, { details: { status } }),
    ),
    warnings: [],
  }
}

const acceptOutcome = `${outcomeMediaType}, application/json`

const maxRedirects = 3

/** A redirect elsewhere is refused: following it would hand the API key, the tenant and the call to a server MK_REMOTE does not name. */
function redirectRefused(server: RemoteServer, location: string): DispatchOutcome {
  return {
    ok: false,
    error: toErrorObject(
      new MkError(
        'PROVIDER_ERROR',
        `the mk server at ${server.url} (MK_REMOTE) redirected the call to ${location}; mk follows only a 307 or 308 within ${new URL(server.url).origin}`,
        {
          details: { location, hint: 'set MK_REMOTE to the URL the server really answers on' },
        },
      ),
    ),
    warnings: [],
  }
}

/**
 * One tool call through `mk serve` instead of in this process: the same outcome the local dispatcher gives, so the CLI prints the same.
 * Redirects are followed by hand, only a 307 or 308 to the same origin (scheme, host and port), which keeps the method and body.
 */
export async function callRemoteTool(server: RemoteServer, toolName: string, input: Record<string, unknown>): Promise<DispatchOutcome> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: acceptOutcome }
  if (server.apiKey !== undefined) headers['x-api-key'] = server.apiKey
  if (server.tenant !== undefined) headers['x-tenant-id'] = server.tenant
  const origin = new URL(server.url).origin
  let target = `${server.url}${toolRoutePath(toolName)}`
  for (let hop = 0; ; hop++) {
    let response: Response
    try {
      response = await fetch(target, { method: 'POST', headers, body: JSON.stringify(input), redirect: 'manual' })
    } catch (error) {
      const reason = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error)
      return {
        ok: false,
        error: toErrorObject(
          new MkError('UNAVAILABLE', `cannot reach the mk server at ${server.url} (MK_REMOTE): ${reason}`, {
            details: { hint: 'start mk serve there, or unset MK_REMOTE to run locally' },
          }),
        ),
        warnings: [],
      }
    }
    const location = response.headers.get('location')
    if (response.status >= 300 && response.status < 400 && location !== null) {
      await response.body?.cancel()
      const next = URL.canParse(location, target) ? new URL(location, target) : undefined
      if (next === undefined || next.origin !== origin || (response.status !== 307 && response.status !== 308) || hop >= maxRedirects)
        return redirectRefused(server, location)
      target = next.toString()
      continue
    }
    return outcomeOf(response.status, (await response.json().catch(() => undefined)) as unknown, server.url)
  }
}

/** Who the CLI runs as; sent over the socket so the server answers as the CLI would have. */
export interface LocalCaller {
  agentId: string | undefined
  teamId: string | undefined
  sessionId: string | undefined
}

/**
 * One tool call through the workspace's local `mk serve --socket`, or undefined
 * when none answers there (never started, stopped, died, or, with `timeoutMs`,
 * no whole answer in time): the caller then runs the tool itself, as if the
 * socket had never existed.
 */
export function callSocketTool(
  socket: string,
  toolName: string,
  input: Record<string, unknown>,
  caller: LocalCaller,
  options: { timeoutMs?: number } = {},
): Promise<DispatchOutcome | undefined> {
  if (!existsSync(socket)) return Promise.resolve(undefined)
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: acceptOutcome }
  if (caller.agentId !== undefined) headers['x-mk-agent-id'] = caller.agentId
  if (caller.teamId !== undefined) headers['x-mk-team-id'] = caller.teamId
  if (caller.sessionId !== undefined) headers['x-mk-session-id'] = caller.sessionId
  return new Promise((resolvePromise) => {
    let timer: NodeJS.Timeout | undefined
    const resolveOutcome = (outcome: DispatchOutcome | undefined): void => {
      clearTimeout(timer)
      resolvePromise(outcome)
    }
    // Its own connection, not the shared agent's: one request per process needs no pooling, and the agent's set-up costs milliseconds of a short command.
    const call = request({ createConnection: () => connect(socket), path: toolRoutePath(toolName), method: 'POST', headers }, (response) => {
      let text = ''
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
      response.on('end', () => {
        let body: unknown
        try {
          body = JSON.parse(text)
        } catch {
          body = undefined
        }
        resolveOutcome(outcomeOf(response.statusCode ?? 0, body, socket))
      })
      response.on('error', () => resolveOutcome(undefined))
      // A server that dies while it answers leaves half a body: no answer at all.
      response.on('close', () => {
        if (!response.complete) resolveOutcome(undefined)
      })
    })
    call.on('error', () => resolveOutcome(undefined))
    if (options.timeoutMs !== undefined) {
      timer = setTimeout(() => {
        call.destroy()
        resolveOutcome(undefined)
      }, options.timeoutMs)
    }
    call.end(JSON.stringify(input))
  })
}
