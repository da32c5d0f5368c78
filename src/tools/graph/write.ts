import { z } from 'zod'
import { defineTool } from '../define.js'
import { graphPlace, json } from './graph-context.js'
import { doneSchema, entitySchema, exampleGraph, relationSchema } from './schemas.js'

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
    const { createEntities } = await import('../../recall/knowledge-graph.js')
    return { output: { entities: await createEntities(input.entities, graphPlace(ctx)) } }
  },
  render: (output) => json(output.entities),
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
    const { createRelations } = await import('../../recall/knowledge-graph.js')
    return { output: { relations: await createRelations(input.relations, graphPlace(ctx)) } }
  },
  render: (output) => json(output.relations),
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
    const { addObservations } = await import('../../recall/knowledge-graph.js')
    return { output: { results: await addObservations(input.observations, graphPlace(ctx)) } }
  },
  render: (output) => json(output.results),
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
    const { deleteEntities } = await import('../../recall/knowledge-graph.js')
    await deleteEntities(input.entityNames, graphPlace(ctx))
    return { output: { success: true, message: 'Entities deleted successfully' } }
  },
  render: (output) => output.message,
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
    const { deleteObservations } = await import('../../recall/knowledge-graph.js')
    await deleteObservations(input.deletions, graphPlace(ctx))
    return { output: { success: true, message: 'Observations deleted successfully' } }
  },
  render: (output) => output.message,
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
    const { deleteRelations } = await import('../../recall/knowledge-graph.js')
    await deleteRelations(input.relations, graphPlace(ctx))
    return { output: { success: true, message: 'Relations deleted successfully' } }
  },
  render: (output) => output.message,
})
