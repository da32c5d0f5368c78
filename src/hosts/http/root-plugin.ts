import type { FastifyInstance } from 'fastify'

type Plugin<Options> = (app: FastifyInstance, options: Options) => Promise<void>

/**
 * A plugin whose hooks, handlers and parsers apply to the instance it is registered on,
 * not to a child context of its own: Fastify's skip-override mark (what fastify-plugin sets).
 */
export function atRoot<Options>(plugin: Plugin<Options>): Plugin<Options> {
  return Object.assign(plugin, { [Symbol.for('skip-override')]: true })
}
