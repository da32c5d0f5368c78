import { createHash } from 'node:crypto'

export type GitObjectType = 'blob' | 'tree' | 'commit'

/** The object id git gives this content as an object of this type, computed without git. */
export function gitObjectId(type: GitObjectType, content: Uint8Array): string {
  return createHash('sha1').update(`${type} ${content.byteLength}\0`).update(content).digest('hex')
}
