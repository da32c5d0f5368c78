import { z } from 'zod'

/** The reference MCP memory server's shapes, so a client configured for it works with mk unchanged. */
export const entitySchema = z.strictObject({
  name: z.string().describe('The name of the entity'),
  entityType: z.string().describe('The type of the entity'),
  observations: z.array(z.string()).describe('An array of observation contents associated with the entity'),
})

export const relationSchema = z.strictObject({
  from: z.string().describe('The name of the entity where the relation starts'),
  to: z.string().describe('The name of the entity where the relation ends'),
  relationType: z.string().describe('The type of the relation'),
})

export const graphSchema = z.strictObject({ entities: z.array(entitySchema), relations: z.array(relationSchema) })

export const doneSchema = z.strictObject({ success: z.boolean(), message: z.string() })

export const exampleGraph = {
  entities: [{ name: 'Alice', entityType: 'person', observations: ['Owns the billing service'] }],
  relations: [{ from: 'Alice', to: 'billing', relationType: 'owns' }],
}
