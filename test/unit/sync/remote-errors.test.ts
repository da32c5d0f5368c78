import { describe, expect, test } from 'vitest'
import { Errors } from 'isomorphic-git'
import { remoteError } from '../../../src/git/errors.js'
import { displayUrl, hasCredentialsInUrl, isHttpUrl, tokenHeaders } from '../../../src/git/http.js'

const remote = { source: 'company', url: 'https://git.example.com/acme/kb.git', tokenEnv: 'ACME_TOKEN' }

describe('remoteError', () => {
  test('401 without a token says which variable to set', () => {
    const error = remoteError(new Errors.HttpError(401, 'Unauthorized', ''), remote, false)
    expect(error).toMatchObject({ code: 'UNAUTHORIZED', retryable: false })
    expect(error.message).toBe('source "company": https://git.example.com/acme/kb.git asked for credentials (HTTP 401)')
    expect(error.details?.hint).toBe('export ACME_TOKEN=<a token with read access to https://git.example.com/acme/kb.git>')
  })

  test('403 with a token says the token was refused', () => {
    const error = remoteError(new Errors.HttpError(403, 'Forbidden', ''), remote, true)
    expect(error.code).toBe('UNAUTHORIZED')
    expect(error.details?.hint).toContain('was refused')
  })

  test('a refused connection is a retryable provider error', () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' })
    const error = remoteError(cause, remote, false)
    expect(error).toMatchObject({ code: 'PROVIDER_ERROR', retryable: true })
    expect(error.message).toContain('(connection refused)')
  })

  test('a server error is retryable, a missing repository is not found', () => {
    expect(remoteError(new Errors.HttpError(503, 'Unavailable', ''), remote, false)).toMatchObject({ code: 'PROVIDER_ERROR', retryable: true })
    expect(remoteError(new Errors.HttpError(404, 'Not Found', ''), remote, false)).toMatchObject({ code: 'NOT_FOUND', retryable: false })
  })
})

describe('credentials', () => {
  test('a bare token is sent as the password; user:token names the user', () => {
    const decode = (headers: Record<string, string>): string => Buffer.from((headers.Authorization ?? '').replace('Basic ', ''), 'base64').toString('utf8')
    expect(decode(tokenHeaders('abc'))).toBe('x-access-token:abc')
    expect(decode(tokenHeaders('oauth2:abc'))).toBe('oauth2:abc')
    expect(tokenHeaders(undefined)).toEqual({})
  })

  test('credentials in a url are detected and never printed', () => {
    expect(hasCredentialsInUrl('https://me:secret@host/r.git')).toBe(true)
    expect(hasCredentialsInUrl('https://host/r.git')).toBe(false)
    expect(displayUrl('https://me:secret@host/r.git')).toBe('https://host/r.git')
  })

  test('only http and https urls are accepted', () => {
    expect(isHttpUrl('https://host/r.git')).toBe(true)
    expect(isHttpUrl('git@github.com:acme/kb.git')).toBe(false)
    expect(isHttpUrl('ssh://git@host/r.git')).toBe(false)
  })
})
