import { MkError } from '../../errors.js'
import { isLoopbackHost } from '../http/loopback.js'

// Apart from the client: every command reads MK_REMOTE, and only a command sent elsewhere loads node:http.

/** Where MK_REMOTE sends every tool call, and as whom. */
export interface RemoteServer {
  url: string
  apiKey: string | undefined
  tenant: string | undefined
}

/** Set to 1 to let MK_REMOTE name a plain http:// server on another machine (the API key then crosses the network unencrypted). */
export const allowPlainHttpVariable = 'MK_REMOTE_ALLOW_HTTP'

function requireRemoteUrl(text: string, env: NodeJS.ProcessEnv): void {
  const url = URL.canParse(text) ? new URL(text) : undefined
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new MkError('INVALID_INPUT', `MK_REMOTE ${JSON.stringify(text)} is not an http(s) URL`, {
      details: { field: 'MK_REMOTE', hint: 'set MK_REMOTE to the URL of an mk server, e.g. https://mk.example.com, or unset it to run locally' },
    })
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && env[allowPlainHttpVariable] !== '1') {
    throw new MkError(
      'INVALID_INPUT',
      `MK_REMOTE ${url.origin} is plain http on another machine: the API key, the tenant and every call would cross the network unencrypted`,
      {
        details: {
          field: 'MK_REMOTE',
          hint: `use https://, or set ${allowPlainHttpVariable}=1 if the network between you and the server is trusted`,
        },
      },
    )
  }
}

/**
 * MK_REMOTE (the server's URL), MK_API_KEY and MK_TENANT; undefined when MK_REMOTE is unset.
 * A plain http:// URL is accepted only for this machine (loopback) unless MK_REMOTE_ALLOW_HTTP=1.
 */
export function remoteServerFrom(env: NodeJS.ProcessEnv): RemoteServer | undefined {
  const url = env.MK_REMOTE
  if (url === undefined || url === '') return undefined
  requireRemoteUrl(url, env)
  return {
    url: url.replace(/\/+$/, ''),
    apiKey: env.MK_API_KEY === '' ? undefined : env.MK_API_KEY,
    tenant: env.MK_TENANT === '' ? undefined : env.MK_TENANT,
  }
}
