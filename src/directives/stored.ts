import type { IndexDocument } from '../search/types.js'
import { ruleActivations, type RuleActivation } from '../knowledge/model.js'
import { directiveHeadings, directiveSeverities, type Directive, type DirectiveSeverity } from './model.js'
import type { DirectiveTopics } from './rank.js'

/** What a directive keeps in the index's `meta` column; the common fields hold the rest. */
interface DirectiveMeta extends DirectiveTopics {
  itemId: string
  itemTitle: string
  section: string
  breadcrumb: string[]
  severity: DirectiveSeverity
  keyword?: string
  line: number
  topics: string[]
  appliesTo: string[]
  authoritativeFor: string[]
  code?: string
  activation?: RuleActivation
  step?: boolean
  emphasis?: boolean
  requestedWhen?: string
  context?: string
  caption?: string
}

/** The index document of a directive: its text is what full text and vectors search; the breadcrumb is its title. */
export function directiveDocument(directive: Directive, topics: DirectiveTopics): IndexDocument {
  const meta: DirectiveMeta = {
    itemId: directive.itemId,
    itemTitle: directive.itemTitle,
    section: directive.section,
    breadcrumb: directive.breadcrumb,
    severity: directive.severity,
    ...(directive.keyword === undefined ? {} : { keyword: directive.keyword }),
    line: directive.line,
    topics: directive.topics,
    appliesTo: directive.appliesTo,
    authoritativeFor: directive.authoritativeFor,
    ...(directive.code === undefined ? {} : { code: directive.code }),
    ...(directive.activation === undefined ? {} : { activation: directive.activation }),
    ...(directive.step === true ? { step: true } : {}),
    ...(directive.emphasis === true ? { emphasis: true } : {}),
    ...(directive.requestedWhen === undefined ? {} : { requestedWhen: directive.requestedWhen }),
    ...(directive.context === undefined ? {} : { context: directive.context }),
    ...(directive.caption === undefined ? {} : { caption: directive.caption }),
    ownTopics: topics.ownTopics,
    itemTopics: topics.itemTopics,
  }
  return {
    id: directive.id,
    kind: 'directive',
    layer: directive.layer,
    // A requested rule is found by what its description says it is for, as well as by its own words.
    title: [directiveHeadings(directive).join(' > '), directive.requestedWhen ?? ''].filter((part) => part !== '').join(' — '),
    content: directive.text,
    tags: directive.tags,
    source: directive.source,
    path: directive.path,
    updatedAt: 0,
    type: directive.itemType,
    status: directive.status,
    meta: JSON.stringify(meta),
  }
}

const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((entry) => typeof entry === 'string')

/** The meta mk wrote, checked field by field: cheaper than a schema for ten thousand rows, and a row from another version is skipped, not trusted. */
function parseMeta(json: string): DirectiveMeta | undefined {
  const meta = JSON.parse(json) as Partial<Record<keyof DirectiveMeta, unknown>>
  const lists = [meta.breadcrumb, meta.topics, meta.appliesTo, meta.authoritativeFor, meta.ownTopics, meta.itemTopics]
  if (typeof meta.itemId !== 'string' || typeof meta.itemTitle !== 'string' || typeof meta.section !== 'string' || typeof meta.line !== 'number')
    return undefined
  if (!(directiveSeverities as readonly unknown[]).includes(meta.severity) || !lists.every(isStrings)) return undefined
  if (meta.keyword !== undefined && typeof meta.keyword !== 'string') return undefined
  if (meta.code !== undefined && typeof meta.code !== 'string') return undefined
  if (meta.requestedWhen !== undefined && typeof meta.requestedWhen !== 'string') return undefined
  if (meta.context !== undefined && typeof meta.context !== 'string') return undefined
  if (meta.caption !== undefined && typeof meta.caption !== 'string') return undefined
  if (meta.activation !== undefined && !(ruleActivations as readonly unknown[]).includes(meta.activation)) return undefined
  return meta as DirectiveMeta
}

/** The directive behind an index document, with what it is about; undefined for a document that is not one or whose meta does not parse. */
export function storedDirective(doc: IndexDocument): { directive: Directive; topics: DirectiveTopics } | undefined {
  if (doc.kind !== 'directive' || doc.meta === undefined || doc.path === undefined) return undefined
  const meta = parseMeta(doc.meta)
  if (meta === undefined) return undefined
  const directive: Directive = {
    id: doc.id,
    itemId: meta.itemId,
    itemType: doc.type ?? 'rule',
    itemTitle: meta.itemTitle,
    layer: doc.layer,
    status: doc.status ?? 'accepted',
    source: doc.source ?? '',
    path: doc.path,
    section: meta.section,
    breadcrumb: meta.breadcrumb,
    text: doc.content,
    severity: meta.severity,
    keyword: meta.keyword,
    line: meta.line,
    tags: [...doc.tags],
    topics: meta.topics,
    appliesTo: meta.appliesTo,
    authoritativeFor: meta.authoritativeFor,
    code: meta.code,
    activation: meta.activation,
    ...(meta.step === true ? { step: true } : {}),
    ...(meta.emphasis === true ? { emphasis: true } : {}),
    ...(meta.requestedWhen === undefined ? {} : { requestedWhen: meta.requestedWhen }),
    ...(meta.context === undefined ? {} : { context: meta.context }),
    ...(meta.caption === undefined ? {} : { caption: meta.caption }),
  }
  return { directive, topics: { ownTopics: meta.ownTopics, itemTopics: meta.itemTopics } }
}
