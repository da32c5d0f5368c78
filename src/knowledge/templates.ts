import { stringify } from 'yaml'
import type { KnowledgeStatus, KnowledgeType } from './model.js'

const sectionsByType: Readonly<Record<KnowledgeType, readonly [string, string][]>> = {
  adr: [
    ['Context', 'What forces are at play, and why does a decision have to be made now?'],
    ['Decision', 'What we decided, stated in full sentences.'],
    ['Consequences', 'What becomes easier or harder because of this decision.'],
  ],
  policy: [
    ['Policy', 'What everyone must (or must not) do.'],
    ['Rationale', 'Why the policy exists.'],
    ['Exceptions', 'When and how an exception can be granted.'],
  ],
  pattern: [
    ['Problem', 'The recurring problem this pattern solves.'],
    ['Solution', 'How to solve it here.'],
    ['Example', 'A short example.'],
  ],
  spec: [
    ['Overview', 'What is specified and for whom.'],
    ['Requirements', 'The requirements, one per line.'],
  ],
  rule: [
    ['Rule', 'The rule in one sentence.'],
    ['Why', 'The reason behind it.'],
  ],
}

export interface TemplateFields {
  id: string
  type: KnowledgeType
  title: string
  status: KnowledgeStatus
  date: string
}

const constraintHint = [
  '# constraints:            # machine-checkable rules enforced by `mk knowledge check`',
  '#   - id: no-left-pad',
  '#     operator: must_not_use   # must_use | must_not_use | must_match | must_not_match | must_exist | must_not_exist',
  '#     target: dependency       # dependency | import | code | file',
  '#     pattern: "^left-pad$"',
  '#     severity: block          # info | warn | block',
  '#     message: Why this is not allowed and what to use instead.',
].join('\n')

/** A new knowledge file in mk's own format, frontmatter filled and sections to write. */
export function renderTemplate(fields: TemplateFields): string {
  const frontmatter = stringify({
    id: fields.id,
    type: fields.type,
    title: fields.title,
    status: fields.status,
    date: fields.date,
    tags: [],
    summary: '',
  }).trimEnd()
  const sections = sectionsByType[fields.type].map(([heading, prompt]) => `## ${heading}\n\n${prompt}\n`).join('\n')
  return `---\n${frontmatter}\n${constraintHint}\n---\n# ${fields.title}\n\n${sections}`
}

export function slugify(title: string): string {
  const slug = title
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '')
  return slug === '' ? 'untitled' : slug
}
