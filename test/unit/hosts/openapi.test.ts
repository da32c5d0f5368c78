import { describe, expect, it } from 'vitest'
import { errorCodes } from '../../../src/errors.js'
import { buildManifest } from '../../../src/tools/generate/manifest.js'
import { buildOpenApi } from '../../../src/hosts/http/openapi.js'
import { httpRoutes, httpStatusByCode } from '../../../src/hosts/http/routes.js'
import { offeredContractRoutes } from '../../../src/hosts/http/memory-routes.js'
import { readPackageInfo } from '../../../src/tools/generate/project.js'
import { tools } from '../../../src/tools/registry.js'

interface Operation {
  operationId: string
  requestBody: { content: { 'application/json': { schema: { properties: Record<string, unknown>; additionalProperties?: boolean } } } }
  responses: Record<string, { content?: { 'application/json': { schema: Record<string, unknown> } } }>
}

describe('HTTP routes and status codes', () => {
  it('maps every error code to the status the contract names', () => {
    expect(Object.keys(httpStatusByCode).sort()).toEqual([...errorCodes].sort())
    expect(httpStatusByCode).toMatchObject({
      INVALID_INPUT: 400,
      UNAUTHORIZED: 401,
      FORBIDDEN: 403,
      NOT_FOUND: 404,
      CONFLICT: 409,
      RATE_LIMITED: 429,
      TIMEOUT: 504,
      INTERNAL_ERROR: 500,
    })
  })

  it('has one route per tool and the contract routes only where all their tools are offered', () => {
    const all = httpRoutes(tools.map((tool) => tool.name))
    expect(all.map((route) => route.tool)).toEqual(tools.map((tool) => tool.name))
    expect(offeredContractRoutes(tools.map((tool) => tool.name)).map((route) => route.path)).toEqual([
      '/v1/memory/recall',
      '/v1/memory/recall_text',
      '/v1/memory/rules/evaluate',
      '/v1/memory/tools/select',
      '/v1/memory/tools/feedback',
      '/v1/memory/archive/rehydrate',
      '/v1/memory/nodes/activate',
    ])
    expect(httpRoutes(['memory_search']).map((route) => route.path)).toEqual(['/v1/tools/memory_search'])
    expect(offeredContractRoutes(['memory_recall']).map((route) => route.path)).toEqual([])
  })
})

describe('buildOpenApi', () => {
  it('describes every route with the tool schemas, tenant_id, the error object per status, and the probes', async () => {
    const document = buildOpenApi(buildManifest(tools, await readPackageInfo())) as {
      openapi: string
      paths: Record<string, { post?: Operation; get?: unknown }>
    }
    expect(document.openapi).toBe('3.1.0')
    const names = tools.map((tool) => tool.name)
    expect(Object.keys(document.paths)).toEqual([
      '/healthz',
      '/readyz',
      ...httpRoutes(names).map((route) => route.path),
      ...offeredContractRoutes(names).map((route) => route.path),
    ])
    const search = document.paths['/v1/tools/memory_search']?.post
    expect(search?.operationId).toBe('memory_search')
    const request = search?.requestBody.content['application/json'].schema
    expect(request?.additionalProperties).toBe(false)
    expect(Object.keys(request?.properties ?? {})).toEqual(expect.arrayContaining(['query', 'tenant_id', 'scope']))
    expect(Object.keys(search?.responses ?? {})).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404', '409', '429', '500', '503', '504']))
    expect(search?.responses['429']?.content?.['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' })
    const recallText = document.paths['/v1/memory/recall_text']?.post
    expect(recallText?.requestBody).toMatchObject({ content: { 'application/json': { schema: { required: ['query_text'], additionalProperties: false } } } })
    expect(recallText?.responses['200']?.content?.['application/json'].schema).toMatchObject({
      required: expect.arrayContaining(['tenant_id', 'scope', 'seeds', 'ranked', 'subgraph', 'context', 'query']),
    })
    expect(JSON.stringify(document)).not.toContain('"$schema"')
  })
})
