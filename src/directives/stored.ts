import { z } from 'zod'
import type { IndexDocument } from '../search/types.js'
import { directiveSeverities, type Directive } from './model.js'

/** What a directive keeps in the index's `meta` column; the common fields hold the rest. */
const directiveMetaSchema = z.object({
  itemId: z.string(),
  itemTitle: z.string(),
  section: z.string(),
  breadcrumb: z.array(z.string()),
  severity: z.enum(directiveSeverities),
  keyword: z.string().optional(),
  line: z.number(),
  topics: z.array(z.string()),
  appliesTo: z.array(z.string()),
  authoritativeFor: z.array(z.string()),
})

/** The index document of a directive: its text is what full text and vectors search; the breadcrumb is its title. */
export function directiveDocument(directive: Directive): IndexDocument {
  const meta: z.input<typeof directiveMetaSchema> = {
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
  }
  return {
    id: directive.id,
    kind: 'directive',
    layer: directive.layer,
    title: directive.breadcrumb.join(' > '),
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

/** The directive behind an index document; undefined for a document that is not one or whose meta does not parse. */
export function storedDirective(doc: IndexDocument): Directive | undefined {
  if (doc.kind !== 'directive' || doc.meta === undefined || doc.path === undefined) return undefined
  const parsed = directiveMetaSchema.safeParse(JSON.parse(doc.meta))
  if (!parsed.success) return undefined
  const meta = parsed.data
  return {
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
  }
}
