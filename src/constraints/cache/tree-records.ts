import { deserialize, serialize } from 'node:v8'

/**
 * The working tree as the last check saw it, in its sorted path order: each
 * path's content identity (its stat signature) and its facts as JSON, parsed
 * only for paths that changed. A path no rule reads has identity '' (its facts
 * depend on its path alone, so it is never stat'ed); a file too recently
 * changed to trust its stat data has none (null), so the next check reads it.
 */
export interface TreeRecords {
  paths: string[]
  identities: (string | null)[]
  /** encodeFacts (contribution.ts) of each path's facts. */
  facts: string[]
}

export const pathOnly = ''

export function encodeTreeRecords(records: TreeRecords): Buffer {
  return serialize(records)
}

const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string')

/** The records, or undefined when the bytes are not records of this shape. */
export function decodeTreeRecords(bytes: Buffer): TreeRecords | undefined {
  let value: unknown
  try {
    value = deserialize(bytes)
  } catch {
    return undefined
  }
  if (typeof value !== 'object' || value === null) return undefined
  const { paths, identities, facts } = value as Record<string, unknown>
  if (!isStringArray(paths) || !isStringArray(facts) || !Array.isArray(identities)) return undefined
  if (identities.length !== paths.length || facts.length !== paths.length) return undefined
  if (!identities.every((identity) => identity === null || typeof identity === 'string')) return undefined
  return { paths, identities: identities as (string | null)[], facts }
}
