import { MkError, errorCodes, toErrorObject, type ErrorObject } from '../../errors.js'
import type { DispatchOutcome } from '../../tools/dispatcher.js'
import { outcomeMediaType, toolRoutePath } from '../../tools/generate/http-routes.js'

/** Where MK_REMOTE sends every tool call, and as whom. */
export interface RemoteServer {
  url: string
  apiKey: string | undefined
  tenant: string | undefined
}

/** MK_REMOTE (the server's URL), MK_API_KEY and MK_TENANT; undefined when MK_REMOTE is unset. */
export function remoteServerFrom(env: NodeJS.ProcessEnv): RemoteServer | undefined {
  const url = env.MK_REMOTE
  if (url === undefined || url === '') return undefined
  return {
    url: url.replace(/\/+$/, ''),
    apiKey: env.MK_API_KEY === '' ? undefined : env.MK_API_KEY,
    tenant: env.MK_TENANT === '' ? undefined : env.MK_TENANT,
  }
}

interface RemoteSuccess {
  output: unknown
  display: string
  exitCode: 0 | 1 | 2
  warnings: string[]
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

/** One tool call through `mk serve` instead of in this process: the same outcome the local dispatcher gives, so the CLI prints the same. */
export async function callRemoteTool(server: RemoteServer, toolName: string, input: Record<string, unknown>): Promise<DispatchOutcome> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: `${outcomeMediaType}, application/json` }
  if (server.apiKey !== undefined) headers['x-api-key'] = server.apiKey
  if (server.tenant !== undefined) headers['x-tenant-id'] = server.tenant
  let response: Response
  try {
    response = await fetch(`${server.url}${toolRoutePath(toolName)}`, { method: 'POST', headers, body: JSON.stringify(input) })
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
  const body = (await response.json().catch(() => undefined)) as unknown
  if (response.ok && isSuccess(body)) return { ok: true, output: body.output, display: body.display, exitCode: body.exitCode, warnings: body.warnings }
  if (!response.ok && isErrorObject(body)) return { ok: false, error: body, warnings: [] }
  return {
    ok: false,
    error: toErrorObject(
      new MkError('PROVIDER_ERROR', `the mk server at ${server.url} answered HTTP ${response.status} with a body mk does not understand`, {
        details: { status: response.status },
      }),
    ),
    warnings: [],
  }
}
