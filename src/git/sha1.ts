import { createHash, type Hash } from 'node:crypto'

/**
 * Node's SHA-1 behind the interface of `sha.js/sha1.js`, which the bundle gives
 * isomorphic-git instead of the package: sha.js and its typed-array polyfills
 * took about half of isomorphic-git's load time, and Node has SHA-1 built in.
 */
export default class Sha1 {
  private readonly hash: Hash = createHash('sha1')

  update(data: string | Uint8Array, encoding?: BufferEncoding): this {
    if (typeof data === 'string') this.hash.update(data, encoding ?? 'utf8')
    else this.hash.update(data)
    return this
  }

  digest(): Buffer
  digest(encoding: 'hex' | 'base64'): string
  digest(encoding?: 'hex' | 'base64'): Buffer | string {
    return encoding === undefined ? this.hash.digest() : this.hash.digest(encoding)
  }
}
