import { z } from 'zod'
import { defineTool } from '../define.js'
import { json, loadGraphState } from './graph-context.js'
import { doneSchema, entitySchema, exampleGraph, relationSchema } from './schemas.js'

const sourceOf = (agentId: string | undefined): string => (agentId === undefined ? 'graph' : `agent:${agentId}`)

export const createEntities = defineTool({
  name: 'create_entities',
  title: 'Create Entities',
  description: 'Create multiple new entities in the knowledge graph; each is an mk memory (an entity whose name exists is left as it is)',
  tier: 'workspace',
  idempotent: false,
  input: z.strictObject({ entities: z.array(entitySchema) }),
  output: z.strictObject({ entities: z.array(entitySchema) }),
  examples: [{ title: 'Add a person', input: { entities: exampleGraph.entities }, output: { entities: exampleGraph.entities } }],
  async run(input, ctx) {
    const state = await loadGraphState(ctx)
    const created: z.output<typeof entitySchema>[] = []
    for (const entity of input.entities) {
      if (state.byName.has(entity.name) || created.some((other) => other.name === entity.name)) continue
      await ctx.store.graph.addEntity(state.folder, entity, sourceOf(ctx.runtime.agentId), { author: ctx.runtime.author, warn: ctx.warn })
      created.push(entity)
    }
    return { output: { entities: created }, display: json(created) }
  },
})

export const createRelations = defineTool({
  name: 'create_relations',
  title: 'Create Relations',
  description: 'Create multiple new relations between entities in the knowledge graph. Relations should be in active voice',
  tier: 'workspace',
  idempotent: false,
  input: z.strictObject({ relations: z.array(relationSchema) }),
  output: z.strictObject({ relations: z.array(relationSchema) }),
  examples: [{ title: 'Alice owns billing', input: { relations: exampleGraph.relations }, output: { relations: exampleGraph.relations } }],
  async run(input, ctx) {
    const [state, { sameRelation }] = await Promise.all([loadGraphState(ctx), import('../../memory/graph.js')])
    const created = input.relations.filter(
      (relation, position) =>
        !state.graph.relations.some((existing) => sameRelation(existing, relation)) &&
        !input.relations.slice(0, position).some((earlier) => sameRelation(earlier, relation)),
    )
    await ctx.store.graph.appendRelations(state.folder, created)
    return { output: { relations: created }, display: json(created) }
  },
})

export const addObservations = defineTool({
  name: 'add_observations',
  title: 'Add Observations',
  description: 'Add new observations to existing entities in the knowledge graph (an observation already there is not added twice)',
  tier: 'workspace',
  idempotent: false,
  input: z.strictObject({
    observations: z.array(
      z.strictObject({
        entityName: z.string().describe('The name of the entity to add the observations to'),
        contents: z.array(z.string()).describe('An array of observation contents to add'),
      }),
    ),
  }),
  output: z.strictObject({ results: z.array(z.strictObject({ entityName: z.string(), addedObservations: z.array(z.string()) })) }),
  examples: [
    {
      title: 'Something new about Alice',
      input: { observations: [{ entityName: 'Alice', contents: ['Prefers Go'] }] },
      output: { results: [{ entityName: 'Alice', addedObservations: ['Prefers Go'] }] },
    },
  ],
  async run(input, ctx) {
    const [state, { MkError }] = await Promise.all([loadGraphState(ctx), import('../../errors.js')])
    const missing = input.observations.find((entry) => !state.byName.has(entry.entityName))
    if (missing !== undefined)
      throw new MkError('NOT_FOUND', `Entity with name ${missing.entityName} not found`, { details: { field: 'observations.entityName' } })
    const results = input.observations.map((entry) => {
      const stored = state.byName.get(entry.entityName)
      const entity = stored?.entity ?? { name: entry.entityName, entityType: '', observations: [] }
      const added = entry.contents.filter((content, position) => !entity.observations.includes(content) && entry.contents.indexOf(content) === position)
      entity.observations.push(...added)
      return { entityName: entry.entityName, addedObservations: added }
    })
    const changed = [...state.byName.values()].filter((stored) =>
      results.some((result) => result.entityName === stored.entity.name && result.addedObservations.length > 0),
    )
    await ctx.store.graph.saveEntities(state.folder, changed, `add observations (${state.folder.key})`, { author: ctx.runtime.author, warn: ctx.warn })
    return { output: { results }, display: json(results) }
  },
})

export const deleteEntities = defineTool({
  name: 'delete_entities',
  title: 'Delete Entities',
  description: 'Delete multiple entities and their associated relations from the knowledge graph (their memories can be restored with mk memory restore)',
  tier: 'workspace',
  idempotent: true,
  destructive: true,
  input: z.strictObject({ entityNames: z.array(z.string()).describe('An array of entity names to delete') }),
  output: doneSchema,
  examples: [{ title: 'Forget Alice', input: { entityNames: ['Alice'] }, output: { success: true, message: 'Entities deleted successfully' } }],
  async run(input, ctx) {
    const state = await loadGraphState(ctx)
    for (const name of input.entityNames) {
      const stored = state.byName.get(name)
      if (stored !== undefined) await ctx.store.memories.delete(stored, { author: ctx.runtime.author, warn: ctx.warn })
    }
    await ctx.store.graph.replaceRelations(state.folder, (relation) => !input.entityNames.includes(relation.from) && !input.entityNames.includes(relation.to))
    const message = 'Entities deleted successfully'
    return { output: { success: true, message }, display: message }
  },
})

export const deleteObservations = defineTool({
  name: 'delete_observations',
  title: 'Delete Observations',
  description: 'Delete specific observations from entities in the knowledge graph',
  tier: 'workspace',
  idempotent: true,
  destructive: true,
  input: z.strictObject({
    deletions: z.array(
      z.strictObject({
        entityName: z.string().describe('The name of the entity containing the observations'),
        observations: z.array(z.string()).describe('An array of observations to delete'),
      }),
    ),
  }),
  output: doneSchema,
  examples: [
    {
      title: 'Alice moved on',
      input: { deletions: [{ entityName: 'Alice', observations: ['Owns the billing service'] }] },
      output: { success: true, message: 'Observations deleted successfully' },
    },
  ],
  async run(input, ctx) {
    const state = await loadGraphState(ctx)
    const changed = input.deletions.flatMap((deletion) => {
      const stored = state.byName.get(deletion.entityName)
      if (stored === undefined) return []
      const kept = stored.entity.observations.filter((observation) => !deletion.observations.includes(observation))
      if (kept.length === stored.entity.observations.length) return []
      stored.entity.observations = kept
      return [stored]
    })
    await ctx.store.graph.saveEntities(state.folder, changed, `delete observations (${state.folder.key})`, { author: ctx.runtime.author, warn: ctx.warn })
    const message = 'Observations deleted successfully'
    return { output: { success: true, message }, display: message }
  },
})

export const deleteRelations = defineTool({
  name: 'delete_relations',
  title: 'Delete Relations',
  description: 'Delete multiple relations from the knowledge graph',
  tier: 'workspace',
  idempotent: true,
  destructive: true,
  input: z.strictObject({ relations: z.array(relationSchema).describe('An array of relations to delete') }),
  output: doneSchema,
  examples: [
    {
      title: 'Alice no longer owns billing',
      input: { relations: exampleGraph.relations },
      output: { success: true, message: 'Relations deleted successfully' },
    },
  ],
  async run(input, ctx) {
    const [state, { sameRelation }] = await Promise.all([loadGraphState(ctx), import('../../memory/graph.js')])
    await ctx.store.graph.replaceRelations(state.folder, (relation) => !input.relations.some((deleted) => sameRelation(deleted, relation)))
    const message = 'Relations deleted successfully'
    return { output: { success: true, message }, display: message }
  },
})
