import { describe, expect, it } from 'vitest'
import { validateConfig } from '../../../src/config/load.js'
import { knowledgePathFilter } from '../../../src/knowledge/files.js'

describe('knowledgePathFilter', () => {
  const workspace = { root: '/ws', configPath: undefined, config: validateConfig({}, 'test'), mkHome: '/home/.mk', stateDir: '/ws/.mk' }

  it('takes markdown files and leaves out readmes, templates and other files', () => {
    const isKnowledge = knowledgePathFilter(workspace, '/ws/knowledge')
    expect(isKnowledge('adr/0001-x.md')).toBe(true)
    expect(isKnowledge('adr/README.md')).toBe(false)
    expect(isKnowledge('adr/adr-template.md')).toBe(false)
    expect(isKnowledge('adr/notes.txt')).toBe(false)
  })

  it('leaves out the project memory folder and every source\'s memory/ folder', () => {
    expect(knowledgePathFilter(workspace, '/ws/knowledge')('memory/mem_1.md')).toBe(false)
    expect(knowledgePathFilter(workspace, '/home/.mk/sources/company')('memory/mem_1.md')).toBe(false)
    expect(knowledgePathFilter(workspace, '/home/.mk/sources/company')('adr/memory.md')).toBe(true)
  })
})
