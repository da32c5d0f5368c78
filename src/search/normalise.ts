import { createHash } from 'node:crypto'
import { sha256Hex } from '../hash.js'

/** Content as dedup sees it: case, spacing and trailing punctuation do not make a new memory. */
export function normaliseContent(content: string): string {
  return content
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.!]+$/, '')
}

export function dedupKey(content: string): string {
  return sha256Hex(normaliseContent(content)).slice(0, 32)
}

export function contentHash(...parts: readonly string[]): string {
  const hash = createHash('sha256')
  for (const part of parts) hash.update(part).update('\u0000')
  return hash.digest('hex').slice(0, 32)
}
