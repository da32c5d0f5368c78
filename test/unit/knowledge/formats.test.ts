import { describe, expect, it } from 'vitest'
import { parseKnowledgeFile } from '../../../src/knowledge/parse.js'
import { formatCases, formatStatusMap } from '../../fixtures/adr-formats.js'

function parse(path: string, text: string) {
  return parseKnowledgeFile({ path, absolutePath: `/ws/${path}`, source: 'project', layer: 'project', text, statusMap: formatStatusMap })
}

describe('ADR files in the formats teams write (issue 12)', () => {
  for (const [path, expected] of Object.entries(formatCases)) {
    it(`reads the title and status of ${path}`, async () => {
      const { item } = await parse(path, expected.text)
      expect(item).toMatchObject({ title: expected.title, status: expected.status, statusRaw: expected.statusRaw, type: 'adr' })
      if (expected.supersededBy !== undefined) expect(item?.supersededBy).toEqual(expected.supersededBy)
    })
  }

  it('warns about a status that maps to no canonical status, at its line, and loads it as written', async () => {
    const { item, problems } = await parse('doc/adr/0006-pause-migration.md', formatCases['doc/adr/0006-pause-migration.md']?.text ?? '')
    expect(item?.status).toBe('on hold')
    expect(problems).toMatchObject([{ code: 'unmapped-status', severity: 'warning', line: 5 }])
  })

  it('says as information that a file writes no status, and never reads one from a code block', async () => {
    const { item, problems } = await parse('docs/adr/adr-014-project-templates.md', formatCases['docs/adr/adr-014-project-templates.md']?.text ?? '')
    expect(item?.status).toBe('accepted')
    expect(problems).toMatchObject([{ code: 'no-status', severity: 'info' }])
  })

  it('keeps a multi-word status whole instead of cutting it to its first word', async () => {
    const { item } = await parse('doc/adr/0009-x.md', '# 9. X\n\n## Status\n\nPartly superseded\n')
    expect(item).toMatchObject({ status: 'partly superseded', statusRaw: 'Partly superseded' })
  })

  it('does not take a link to a web page after "Superseded" for an ADR', async () => {
    const text = '# 9. X\n\n## Status\n\nSuperseded\n\n[The code moved elsewhere](https://git.example.com/issues/77).\n'
    const { item } = await parse('doc/adr/0009-x.md', text)
    expect(item).toMatchObject({ status: 'superseded', supersededBy: [] })
  })
})
