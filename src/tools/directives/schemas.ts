import { z } from 'zod'
import { modeSlugs } from '../../directives/modes.js'

export const modeSlugSchema = z
  .enum(modeSlugs)
  .optional()
  .describe(`The agent's mode, which biases the layers: ${modeSlugs.join(', ')}`)

export const taskTextSchema = z
  .string()
  .max(100_000)
  .refine((value) => value.trim() !== '', 'non-empty text')
