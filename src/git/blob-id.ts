import { createHash } from 'node:crypto'

/** The object id git gives this content as a blob, computed without git. */
export function gitBlobId(content: Uint8Array): string {
  return createHash('sha1').update(`blob ${content.byteLength}\0`).update(content).digest('hex')
}
