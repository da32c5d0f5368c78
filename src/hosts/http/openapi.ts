import { httpRoutes, httpStatusByCode, tenantIdPattern, type HttpRoute } from './routes.js'
import { z } from 'zod'
import { portableSchema, type JsonSchema } from '../../tools/generate/json-schema.js'
import type { ContractRoute } from './memory-contract.js'
import { offeredContractRoutes } from './memory-routes.js'
import type { ManifestTool, ToolManifest } from '../../tools/generate/manifest-schema.js'

const errorRef = { $ref: '#/components/schemas/Error' }

function bare(schema: JsonSchema): JsonSchema {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => key !== '$schema'))
}

/** The tool's input plus tenant_id and scope, which the server reads and removes before the tool sees the input. */
function requestSchema(tool: ManifestTool): JsonSchema {
  const input = bare(tool.input_schema)
  const properties = (input.properties ?? {}) as JsonSchema
  return {
    ...input,
    properties: {
      ...properties,
      tenant_id: { type: 'string', description: 'The tenant to act in (default: X-Tenant-Id, else the credential’s tenant, else "default")' },
      scope: { type: 'string', pattern: tenantIdPattern.source, description: 'The partition inside the tenant to act in (default "default")' },
    },
  }
}

/** A contract route's schema as OpenAPI shows it: the same zod schema that reads the request or whitelists the answer. */
function contractSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  return bare(portableSchema(z.toJSONSchema(schema, { target: 'draft-2020-12', io })) as JsonSchema)
}

function errorResponses(): Record<string, unknown> {
  const statuses = [...new Set(Object.values(httpStatusByCode))].sort((a, b) => a - b)
  const codesOf = (status: number): string =>
    Object.entries(httpStatusByCode)
      .filter(([, mapped]) => mapped === status)
      .map(([code]) => code)
      .join(', ')
  return Object.fromEntries(
    statuses.map((status) => [
      String(status),
      {
        description: `errorCode ${codesOf(status)}${status === 429 ? ' (Retry-After says when to try again)' : ''}`,
        content: { 'application/json': { schema: errorRef } },
      },
    ]),
  )
}

function operation(route: HttpRoute, tool: ManifestTool): Record<string, unknown> {
  return {
    operationId: tool.name,
    summary: tool.title,
    description: tool.description,
    tags: ['tools'],
    'x-mk-tool': tool.name,
    'x-mk-tier': tool.tier,
    parameters: [{ $ref: '#/components/parameters/TenantId' }],
    requestBody: { required: false, content: { 'application/json': { schema: requestSchema(tool) } } },
    responses: {
      '200': {
        description: 'The tool ran (an exit code 1 result, such as blocking violations, is also 200 with X-Mk-Exit-Code: 1)',
        content: { 'application/json': { schema: bare(tool.output_schema) } },
      },
      ...errorResponses(),
    },
  }
}

/** A seed 002 route: the spec's request and DTO; a failure is the error object plus the spec's code as `error`. */
function contractOperation(route: ContractRoute, tool: ManifestTool): Record<string, unknown> {
  return {
    operationId: route.path.slice(1).replaceAll('/', '_'),
    summary: `${tool.title} (memory-graph contract, seed 002)`,
    description: `${tool.description}\n\nThe memory-graph API contract's route, answered by ${route.tools.join(' and ')}: the request and the answer in the contract's names, DTO-whitelisted. A failure is the error object with the contract's code as \`error\` (no_tools_allowed, upstream_embedding_*, identity_mismatch, ...).`,
    tags: ['contract'],
    'x-mk-tool': tool.name,
    'x-mk-tier': tool.tier,
    parameters: [{ $ref: '#/components/parameters/TenantId' }],
    requestBody: { required: true, content: { 'application/json': { schema: contractSchema(route.request, 'input') } } },
    responses: {
      '200': { description: 'The contract answer', content: { 'application/json': { schema: contractSchema(route.response, 'output') } } },
      '502': { description: 'recall_text: upstream_embedding_bad_response', content: { 'application/json': { schema: errorRef } } },
      ...errorResponses(),
    },
  }
}

const probe = (summary: string): Record<string, unknown> => ({
  get: {
    operationId: summary === 'Liveness' ? 'healthz' : 'readyz',
    summary,
    tags: ['probes'],
    security: [],
    responses: {
      '200': { description: summary === 'Liveness' ? 'The process serves requests' : 'The index is open and the model loaded' },
      '503': { description: 'Shutting down, or not ready yet', content: { 'application/json': { schema: errorRef } } },
    },
  },
})

/** The OpenAPI 3.1 document of `mk serve`, generated from the manifest like every other interface. */
export function buildOpenApi(manifest: ToolManifest): Record<string, unknown> {
  const byName = new Map(manifest.tools.map((tool) => [tool.name, tool]))
  const paths: Record<string, unknown> = { '/healthz': probe('Liveness'), '/readyz': probe('Readiness') }
  const names = manifest.tools.map((tool) => tool.name)
  for (const route of httpRoutes(names)) {
    const tool = byName.get(route.tool)
    if (tool !== undefined) paths[route.path] = { post: operation(route, tool) }
  }
  for (const route of offeredContractRoutes(names)) {
    const tool = byName.get(route.tool)
    if (tool !== undefined) paths[route.path] = { post: contractOperation(route, tool) }
  }
  const errorSchema = bare(manifest.tools[0]?.error_schema ?? {})
  return {
    openapi: '3.1.0',
    info: { title: `${manifest.project.name} server (mk serve)`, version: manifest.project.version, description: manifest.project.description },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: 'http://127.0.0.1:7411' }],
    security: [{ ApiKey: [] }, { Bearer: [] }, {}],
    paths,
    components: {
      schemas: { Error: errorSchema },
      parameters: {
        TenantId: {
          name: 'X-Tenant-Id',
          in: 'header',
          required: false,
          schema: { type: 'string', pattern: tenantIdPattern.source },
          description: 'The tenant to act in; tenant_id in the body wins',
        },
      },
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
        Bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT (HS256)' },
      },
    },
  }
}

export function renderOpenApi(manifest: ToolManifest): string {
  return `${JSON.stringify(buildOpenApi(manifest), null, 2)}\n`
}
