import { randomBytes } from 'node:crypto'
import { ulid } from 'ulid'

const memoryIdPattern = /^mem_[0-9A-HJKMNP-TV-Z]{26}$/

/**
 * ulid's own randomness is globalThis.crypto, whose first use loads Node's Web Crypto: about
 * 1 ms of every `mk memory add`, where node:crypto is loaded already. The same draw as ulid's.
 */
function randomFraction(): number {
  return randomBytes(1).readUInt8() / 256
}

export function newMemoryId(): string {
  return `mem_${ulid(undefined, randomFraction)}`
}

export function isMemoryId(value: string): boolean {
  return memoryIdPattern.test(value)
}
