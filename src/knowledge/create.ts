import { basename, dirname, join, relative } from 'node:path'
import type { Workspace } from '../config/workspace.js'
import { MkError, isNodeError } from '../errors.js'
import { writeFileExclusive } from '../fs/atomic-write.js'
import { requireResolvesWithin, writableFolders } from '../fs/path-guard.js'
import { toPosix } from '../fs/walk.js'
import type { KnowledgeBase } from './load.js'
import type { KnowledgeItem, KnowledgeType } from './model.js'
import { renderTemplate, slugify } from './templates.js'
import type { ResolvedSource } from './sources.js'

const folderByType: Readonly<Record<KnowledgeType, string>> = { adr: 'adr', policy: 'policies', pattern: 'patterns', spec: 'specs', rule: 'rules' }

const adrNumber = /^(?:adr-)?(\d{1,5})(?=[-_.]|$)/i

function numberOf(item: KnowledgeItem): number | undefined {
  const match = adrNumber.exec(basename(item.path, '.md'))
  return match?.[1] === undefined ? undefined : Number(match[1])
}

export interface NewItemRequest {
  type: KnowledgeType
  title: string
  source: string | undefined
  today: string
}

export interface NewItemPlan {
  id: string
  absolutePath: string
  path: string
  content: string
}

/** The local source to write into: the named one, else the project source, else the first local one. */
export function pickSource(base: KnowledgeBase, workspace: Workspace, name: string | undefined): ResolvedSource {
  const writable = base.sources.filter((source) => source.kind === 'path')
  const source =
    name === undefined ? (writable.find((candidate) => candidate.layer === 'project') ?? writable[0]) : writable.find((candidate) => candidate.name === name)
  if (source === undefined) {
    throw new MkError('INVALID_INPUT', name === undefined ? 'no local knowledge source to write to' : `no local knowledge source named "${name}"`, {
      details: { sources: writable.map((candidate) => candidate.name), hint: `configure knowledge.sources in ${workspace.configPath ?? '.mkrc'}` },
    })
  }
  return source
}

/**
 * Where a new item goes and what it says. ADRs are numbered after the highest
 * existing number and follow the naming of the existing ones (`0007-x.md` or `adr-0007-x.md`).
 */
export function planNewItem(base: KnowledgeBase, workspace: Workspace, request: NewItemRequest): NewItemPlan {
  const source = pickSource(base, workspace, request.source)
  const sameType = base.allItems.filter((item) => item.type === request.type && item.source === source.name)
  const slug = slugify(request.title)
  let stem = slug
  let directory = join(source.directory, folderByType[request.type])
  if (request.type === 'adr') {
    const numbered = sameType
      .map((item) => ({ item, number: numberOf(item) }))
      .filter((entry): entry is { item: KnowledgeItem; number: number } => entry.number !== undefined)
    const highest = numbered.sort((a, b) => b.number - a.number)[0]
    const next = String((highest?.number ?? 0) + 1).padStart(4, '0')
    const prefixed = highest === undefined || basename(highest.item.path).toLowerCase().startsWith('adr-')
    stem = prefixed ? `adr-${next}-${slug}` : `${next}-${slug}`
    if (highest !== undefined) directory = dirname(highest.item.absolutePath)
  } else if (sameType[0] !== undefined) {
    directory = dirname(sameType[0].absolutePath)
  }
  const absolutePath = join(directory, `${stem}.md`)
  requireResolvesWithin(writableFolders(workspace.root, workspace.mkHome), absolutePath, `knowledge source "${source.name}"`)
  const content = renderTemplate({
    id: stem,
    type: request.type,
    title: request.title,
    status: request.type === 'adr' ? 'proposed' : 'draft',
    date: request.today,
  })
  return { id: stem, absolutePath, path: toPosix(relative(workspace.root, absolutePath)), content }
}

export async function writeNewItem(plan: NewItemPlan, base: KnowledgeBase): Promise<void> {
  if (base.allItems.some((item) => item.id === plan.id)) {
    throw new MkError('CONFLICT', `a knowledge item with id "${plan.id}" already exists`, { details: { id: plan.id } })
  }
  try {
    await writeFileExclusive(plan.absolutePath, plan.content)
  } catch (error) {
    if (isNodeError(error) && error.code === 'EEXIST') {
      throw new MkError('CONFLICT', `${plan.path} already exists; mk never overwrites a knowledge file`, {
        details: { path: plan.path, hint: 'choose another title' },
      })
    }
    throw error
  }
}
