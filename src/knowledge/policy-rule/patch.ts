import { z } from 'zod'
import { outputFormats, type PolicyPatch } from './model.js'

const toolName = z.string().trim().min(1, 'a tool name')
const toolList = z.array(toolName)
/** `acme`, `acme.review`: the owner of the settings first, so two callers never share a key by accident. */
const namespace = /^[a-z][a-z0-9_-]*(\.[a-z][a-z0-9_-]*)*$/

/** The strict schema of `then`: nothing else is ever applied. */
export const policyPatchSchema = z.strictObject({
  output: z.strictObject({ format: z.enum(outputFormats).optional(), strict: z.boolean().optional() }).optional(),
  tool: z.strictObject({ allow: toolList.optional(), deny: toolList.optional(), prefer: toolList.optional() }).optional(),
  extensions: z.record(z.string().regex(namespace, 'a namespace such as "acme" or "acme.review"'), z.record(z.string(), z.unknown())).optional(),
})

export type PatchReading = { patch: PolicyPatch; error?: undefined } | { patch?: undefined; error: string }

/** Check a rule's `then`; the error names each wrong field (`tool.allow[1]: expected string`). */
export function readPatch(then: unknown): PatchReading {
  const parsed = policyPatchSchema.safeParse(then)
  if (parsed.success) return { patch: parsed.data }
  const error = parsed.error.issues
    .map((issue) => {
      const where = issue.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('')
      return `${where === '' ? 'then' : `then${where}`}: ${issue.message}`
    })
    .join('; ')
  return { error }
}
