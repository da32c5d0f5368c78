import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { isNodeError } from '../errors.js'

/** A text file's content, or undefined when there is no such file; any other failure is thrown. */
export async function readTextIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8')
  } catch (error) {
    if (isNodeError(error) && error.code === 'ENOENT') return undefined
    throw error
  }
}

/** A file's bytes, or undefined when there is no such file; any other failure is thrown. */
export function readBytesIfExists(path: string): Buffer | undefined {
  try {
    return readFileSync(path)
  } catch (error) {
    if (isNodeError(error) && error.code === 'ENOENT') return undefined
    throw error
  }
}
