import { ulid } from 'ulid'

const memoryIdPattern = /^mem_[0-9A-HJKMNP-TV-Z]{26}$/

export function newMemoryId(): string {
  return `mem_${ulid()}`
}

export function isMemoryId(value: string): boolean {
  return memoryIdPattern.test(value)
}
