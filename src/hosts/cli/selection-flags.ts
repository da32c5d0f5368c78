import { readJsonObjectFile } from './json-input.js'

/** The comma-separated tool names of --candidates, blanks dropped. */
export function candidateList(flag: string): string[] {
  return flag
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')
}

/** The --context of mk tools select and feedback: a JSON object in a file or on stdin, or an empty context. */
export async function selectionContext(flag: string | undefined, hint: string): Promise<Record<string, unknown>> {
  return flag === undefined ? {} : readJsonObjectFile(flag, '--context', hint)
}
