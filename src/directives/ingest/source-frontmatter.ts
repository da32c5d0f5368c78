/**
 * The frontmatter of an agent rule file. Cursor and Copilot write it loosely (`globs: **\/*.ts`
 * is not valid YAML: `*` starts an alias), so it is read line by line: `key: value`, `key: [a, b]`
 * and `key:` followed by `- item` lines. Only the keys mk maps are used.
 */
export interface SourceFrontmatter {
  description: string | undefined
  /** Cursor `globs` and Copilot `applyTo`, one glob per entry. */
  globs: string[]
  alwaysApply: boolean | undefined
  body: string
  /** File line where the body starts. */
  bodyStartLine: number
}

function unquote(value: string): string {
  const trimmed = value.trim()
  return /^(["']).*\1$/.test(trimmed) ? trimmed.slice(1, -1) : trimmed
}

/** Split on commas outside braces: `src/**\/*.{ts,tsx}, test/**` is two globs. */
export function splitGlobs(value: string): string[] {
  const globs: string[] = []
  let depth = 0
  let current = ''
  for (const character of value) {
    if (character === '{') depth++
    if (character === '}') depth = Math.max(0, depth - 1)
    if (character === ',' && depth === 0) {
      globs.push(current)
      current = ''
    } else {
      current += character
    }
  }
  globs.push(current)
  return globs.map(unquote).filter((glob) => glob !== '')
}

function listOf(value: string | string[]): string[] {
  if (Array.isArray(value)) return value.flatMap(splitGlobs)
  const trimmed = unquote(value)
  return splitGlobs(trimmed.startsWith('[') && trimmed.endsWith(']') ? trimmed.slice(1, -1) : trimmed)
}

function readKeys(lines: readonly string[]): Map<string, string | string[]> {
  const keys = new Map<string, string | string[]>()
  let listKey: string | undefined
  for (const line of lines) {
    const entry = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(line)
    const item = /^\s+-\s+(.*)$/.exec(line)
    if (entry?.[1] !== undefined) {
      const value = (entry[2] ?? '').trim()
      listKey = value === '' ? entry[1] : undefined
      keys.set(entry[1], value === '' ? [] : value)
    } else if (item?.[1] !== undefined && listKey !== undefined) {
      const list = keys.get(listKey)
      if (Array.isArray(list)) list.push(unquote(item[1]))
    }
  }
  return keys
}

export function readSourceFrontmatter(text: string): SourceFrontmatter {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/)
  const end = lines[0]?.trim() === '---' ? lines.findIndex((line, index) => index > 0 && line.trim() === '---') : -1
  if (end < 0) return { description: undefined, globs: [], alwaysApply: undefined, body: lines.join('\n'), bodyStartLine: 1 }
  const keys = readKeys(lines.slice(1, end))
  const scalar = (key: string): string | undefined => {
    const value = keys.get(key)
    return typeof value === 'string' && unquote(value) !== '' ? unquote(value) : undefined
  }
  const globs = [...(keys.has('globs') ? listOf(keys.get('globs') ?? '') : []), ...(keys.has('applyTo') ? listOf(keys.get('applyTo') ?? '') : [])]
  const always = scalar('alwaysApply')?.toLowerCase()
  return {
    description: scalar('description'),
    globs,
    alwaysApply: always === 'true' ? true : always === 'false' ? false : undefined,
    body: lines.slice(end + 1).join('\n'),
    bodyStartLine: end + 2,
  }
}
