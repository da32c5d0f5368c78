import { readFileSync } from 'node:fs'
import type { ConstraintRule } from '../model.js'

const constraintsKey = /^constraints:[ \t]*(#.*)?$/u
const blank = /^[ \t]*(#.*)?$/u
/** A list item whose value starts on the dash's own line, without an anchor or a tag before it. */
const itemOnItsLine = /^- +[^ #&!]/u

/**
 * Lines of the items of a frontmatter's `constraints:` list when it is written
 * as a block list at the top level, one `- ` per item at one indentation (the
 * form mk's templates and nearly every hand-written file use); undefined for
 * anything else.
 */
function blockListItemLines(text: string): number[] | undefined {
  const lines = text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line))
  if (lines[0]?.trimEnd() !== '---') return undefined
  // gray-matter ends the frontmatter at the first line that starts with ---.
  const end = lines.findIndex((line, index) => index > 0 && line.startsWith('---'))
  if (end === -1) return undefined
  const keys = lines.slice(1, end).flatMap((line, index) => (constraintsKey.test(line) ? [index + 1] : []))
  if (keys.length !== 1) return undefined
  const items: number[] = []
  let indent: number | undefined
  for (let index = (keys[0] as number) + 1; index < end; index++) {
    const line = lines[index] as string
    if (blank.test(line)) continue
    if (line.startsWith('\t')) return undefined
    const depth = line.length - line.trimStart().length
    if (depth === 0 && !line.startsWith('-')) break
    indent ??= depth
    if (depth < indent) return undefined
    if (depth > indent) continue
    if (!itemOnItsLine.test(line.slice(depth))) return undefined
    items.push(index + 1)
  }
  return items
}

/**
 * Line of each rule's constraint in its knowledge file, for the text report.
 * The usual block list is read line by line; anything else asks the YAML
 * parser (`constraint.line`), which costs tens of milliseconds to load.
 */
export function constraintLines(): (rule: ConstraintRule) => number {
  const byFile = new Map<string, number[] | undefined>()
  const byRule = new WeakMap<ConstraintRule, number>()
  return (rule) => {
    let line = byRule.get(rule)
    if (line !== undefined) return line
    const { item, constraint } = rule
    let items = byFile.get(item.absolutePath)
    if (!byFile.has(item.absolutePath)) {
      items = readItemLines(item.absolutePath)
      byFile.set(item.absolutePath, items)
    }
    const index = item.constraints.indexOf(constraint)
    line = items !== undefined && items.length === item.constraints.length && index !== -1 ? (items[index] as number) : constraint.line
    byRule.set(rule, line)
    return line
  }
}

function readItemLines(path: string): number[] | undefined {
  try {
    return blockListItemLines(readFileSync(path, 'utf8'))
  } catch {
    return undefined
  }
}
