import { httpRoutes, httpStatusByCode, tenantIdPattern, type HttpRoute } from './routes.js'
import type { JsonSchema } from '../../tools/generate/json-schema.js'
import type { ManifestTool, ToolManifest } from '../../tools/generate/manifest-schema.js'

const errorRef = { $ref: '#/components/schemas/Error' }

function bare(schema: JsonSchema): JsonSchema {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => key !== '$schema'))
}

/** The tool's input plus tenant_id, which the server reads and removes before the tool sees the input. */
function requestSchema(tool: ManifestTool): JsonSchema {
  const input = bare(tool.input_schema)
  const properties = (input.properties ?? {}) as JsonSchema
  return {
    ...input,
    properties: {
      ...properties,
      tenant_id: { type: 'string', description: 'The tenant to act in (default: X-Tenant-Id, else the credential’s tenant, else "default")' },
    },
  }
}

function responseSchema(route: HttpRoute, tool: ManifestTool): JsonSchema {
  if (route.view === 'context_text') {
    return {
      type: 'object',
      properties: { text: { type: 'string', description: 'The context text memory_recall composed, every line cited' } },
      required: ['text'],
      additionalProperties: false,
    }
  }
  return bare(tool.output_schema)
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
  const alias = route.path !== `/v1/tools/${tool.name}`
  return {
    operationId: alias ? route.path.slice(1).replaceAll('/', '_') : tool.name,
    summary: alias ? `${tool.title} (contract alias of ${tool.name}${route.view === 'context_text' ? ', context text only' : ''})` : tool.title,
    description: tool.description,
    tags: [alias ? 'contract' : 'tools'],
    'x-mk-tool': tool.name,
    'x-mk-tier': tool.tier,
    parameters: [{ $ref: '#/components/parameters/TenantId' }],
    requestBody: { required: false, content: { 'application/json': { schema: requestSchema(tool) } } },
    responses: {
      '200': {
        description: 'The tool ran (an exit code 1 result, such as blocking violations, is also 200 with X-Mk-Exit-Code: 1)',
        content: { 'application/json': { schema: responseSchema(route, tool) } },
      },
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
  for (const route of httpRoutes(manifest.tools.map((tool) => tool.name))) {
    const tool = byName.get(route.tool)
    if (tool !== undefined) paths[route.path] = { post: operation(route, tool) }
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
