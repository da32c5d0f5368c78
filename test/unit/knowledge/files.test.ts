import { describe, expect, it } from 'vitest'
import { validateConfig } from '../../../src/config/load.js'
import { knowledgePathFilter } from '../../../src/knowledge/files.js'
import { templateFileNames } from '../../fixtures/adr-formats.js'

describe('knowledgePathFilter', () => {
  const workspace = { root: '/ws', configPath: undefined, config: validateConfig({}, 'test'), mkHome: '/home/.mk', stateDir: '/ws/.mk' }

  it('takes markdown files and leaves out readmes, templates and other files', () => {
    const isKnowledge = knowledgePathFilter(workspace, '/ws/knowledge')
    expect(isKnowledge('adr/0001-x.md')).toBe(true)
    expect(isKnowledge('adr/README.md')).toBe(false)
    expect(isKnowledge('adr/adr-template.md')).toBe(false)
    expect(isKnowledge('adr/notes.txt')).toBe(false)
  })

  it('recognises templates by their exact names, never by a substring (issue 12)', () => {
    const isKnowledge = knowledgePathFilter(workspace, '/ws/knowledge')
    for (const name of templateFileNames) expect(isKnowledge(`adr/${name}`), name).toBe(false)
    expect(isKnowledge('adr/adr-014-project-templates.md')).toBe(true)
    expect(isKnowledge('adr/0031-template-engine.md')).toBe(true)
  })

  it("leaves out the project memory folder and every source's memory/ folder", () => {
    expect(knowledgePathFilter(workspace, '/ws/knowledge')('memory/mem_1.md')).toBe(false)
    expect(knowledgePathFilter(workspace, '/home/.mk/sources/company')('memory/mem_1.md')).toBe(false)
    expect(knowledgePathFilter(workspace, '/home/.mk/sources/company')('adr/memory.md')).toBe(true)
  })
})
