import { z } from 'zod'

/** Candidate tool names: 1-200, trimmed, each kept once in the order given. */
export const candidatesSchema = z
  .array(z.string().trim().min(1))
  .min(1)
  .max(200)
  .transform((names) => [...new Set(names)])
  .describe('The tools the planner could use next, 1-200 names (duplicates are dropped)')

export const selectionSchema = z.strictObject({
  allowed: z.array(z.string()).describe('Candidates the rules let through, in candidate order'),
  denied: z.array(z.string()).describe('Candidates denied, or left out of an allow list'),
  preferred: z.array(z.string()).describe('Allowed candidates a rule prefers, by rule rank'),
  ordered: z.array(z.string()).describe('preferred first, then the other allowed candidates'),
  selected: z.string().optional().describe('The first of ordered: the tool to use; absent when nothing is allowed'),
  fallback: z.string().optional().describe('Set when strict is false and no candidate was in every allow list: what was done instead'),
})
