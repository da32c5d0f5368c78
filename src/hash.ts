import * as crypto from 'node:crypto'

type OneShotHash = (algorithm: string, data: string | Buffer, encoding: 'hex') => string

/** `crypto.hash` (Node 20.12+) hashes a short text about 3× faster than createHash().update().digest(). */
const oneShot = (crypto as { hash?: OneShotHash }).hash

/** The SHA-256 of a text (as UTF-8) or bytes, in hex: the one digest of content fingerprints, cache keys and ids. */
export function sha256Hex(data: string | Buffer): string {
  return oneShot === undefined ? crypto.createHash('sha256').update(data).digest('hex') : oneShot('sha256', data, 'hex')
}
