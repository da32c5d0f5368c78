import { stemOf } from './fields.js'

/** A relative link right after the relation word, on the same line; links to web pages are not ADRs. */
const relationLink = /(superseded(?:[ \t]+by)?|replaced[ \t]+by|supersedes)[ \t]*:?[ \t]*\[[^\]]*\]\((?![a-z][a-z0-9+.-]*:)([^)\s]+)\)/gi
/** `superseded by ADR-0057` with no link: the number is resolved to an item id once every file is loaded. */
const relationNumber = /(superseded(?:[ \t]+by)?|replaced[ \t]+by|supersedes)[ \t]*:?[ \t]*((?:adr[-_ ]?)?#?\d+)\b/gi

export interface Relations {
  supersedes: string[]
  supersededBy: string[]
}

function linkTargetId(target: string): string {
  const file = target.split('#')[0] ?? target
  try {
    return stemOf(decodeURIComponent(file))
  } catch {
    return stemOf(file)
  }
}

/** Supersedes links written in a status text (adr-tools, MADR 2): link targets as item ids, bare numbers as written. */
export function relationsInStatus(text: string): Relations {
  const relations: Relations = { supersedes: [], supersededBy: [] }
  const add = (relation: string | undefined, target: string): void => {
    if (relation?.toLowerCase().startsWith('supersedes')) relations.supersedes.push(target)
    else relations.supersededBy.push(target)
  }
  for (const match of text.matchAll(relationLink)) add(match[1], linkTargetId(match[2] ?? ''))
  if (relations.supersedes.length === 0 && relations.supersededBy.length === 0) {
    for (const match of text.matchAll(relationNumber)) add(match[1], match[2] ?? '')
  }
  return relations
}
