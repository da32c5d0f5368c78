import type { Directive } from '../../src/directives/model.js'

/** A directive as the ranking sees it: an accepted project MUST of a policy, with any field overridden. */
export function directiveOf(id: string, text: string, fields: Partial<Directive> = {}): Directive {
  const itemId = id.split('#')[0] ?? id
  return {
    id,
    itemId,
    itemType: 'policy',
    itemTitle: 'Rules',
    layer: 'project',
    status: 'accepted',
    source: 'project',
    path: `knowledge/policies/${itemId}.md`,
    section: 'rules',
    breadcrumb: ['Rules'],
    text,
    severity: 'MUST',
    keyword: 'MUST',
    line: 3,
    tags: [],
    topics: [],
    appliesTo: [],
    authoritativeFor: [],
    ...fields,
  }
}
