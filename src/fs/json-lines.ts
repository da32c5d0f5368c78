import { appendFile, open, readFile } from 'node:fs/promises'
import { isNodeError } from '../errors.js'

/** True when the file exists and its last byte is not a newline: a writer died mid-line. */
async function endsMidLine(file: string): Promise<boolean> {
  let handle: Awaited<ReturnType<typeof open>> | undefined
  try {
    handle = await open(file, 'r')
    const { size } = await handle.stat()
    if (size === 0) return false
    const last = Buffer.alloc(1)
    await handle.read(last, 0, 1, size - 1)
    return last[0] !== 0x0a
  } catch (error) {
    if (isNodeError(error) && error.code === 'ENOENT') return false
    throw error
  } finally {
    await handle?.close()
  }
}

/**
 * Append values to a JSON-lines log, one line each; a line torn by a crash is closed first, so it
 * costs only itself. Call under the lock that guards the file.
 */
export async function appendJsonLines(file: string, values: readonly unknown[]): Promise<void> {
  if (values.length === 0) return
  const lines = values.map((value) => `${JSON.stringify(value)}\n`).join('')
  await appendFile(file, (await endsMidLine(file)) ? `\n${lines}` : lines)
}

/**
 * The values of a JSON-lines log, in order; a missing file is empty, and a line that does not
 * parse (torn by a crash, or a merge gone wrong) is skipped rather than failing every reader.
 */
export async function readJsonLines(file: string): Promise<unknown[]> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if (isNodeError(error) && error.code === 'ENOENT') return []
    throw error
  }
  return text.split('\n').flatMap((line) => {
    if (line.trim() === '') return []
    try {
      return [JSON.parse(line) as unknown]
    } catch {
      return []
    }
  })
}
