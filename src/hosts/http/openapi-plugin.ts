import type { FastifyInstance } from 'fastify'

/** GET /openapi.json: the document generated from the registry, sent as it was rendered. */
export async function openApiPlugin(app: FastifyInstance, options: { openApi: string }): Promise<void> {
  app.get('/openapi.json', async (_request, reply) => reply.type('application/json; charset=utf-8').send(options.openApi))
}
