import { describe, expect, it } from 'vitest'
import { searchInvocation } from '../../../src/hosts/cli/search-fast-path.js'
import { staticImportGraph } from '../../helpers/import-graph.js'

// Issue 27 / DESIGN.md: `mk memory search` through a local `mk serve --socket` took 160-220 ms, most of it
// loading mk's bundle; bin/run.js now asks the server first with this small reader of the command line.
describe('the memory search fast path', () => {
  it('reads the query and every flag of mk memory search, in any order and either spelling', () => {
    expect(searchInvocation(['memory', 'search', 'where do orders live'])).toEqual({ input: { query: 'where do orders live' }, json: false })
    expect(
      searchInvocation([
        'memory',
        'search',
        '--json',
        '--limit',
        '5',
        'orders',
        '--threshold=0',
        '--layer',
        'project',
        '--layer=team',
        '--tag',
        'db',
        '--tier',
        'cold',
        '--agent',
        'a-1',
        '--session',
        's-1',
        '--consumer-agent',
        'a-2',
        '--consumer-team',
        't-1',
      ]),
    ).toEqual({
      input: {
        query: 'orders',
        limit: 5,
        threshold: 0,
        layers: ['project', 'team'],
        tags: ['db'],
        tiers: ['cold'],
        agent: 'a-1',
        session: 's-1',
        consumer_agent_id: 'a-2',
        consumer_team_id: 't-1',
      },
      json: true,
    })
  })

  it.each([
    [['memory', 'add', 'orders']],
    [['memory', 'search']],
    [['memory', 'search', '']],
    [['memory', 'search', 'orders', 'more']],
    [['memory', 'search', 'orders', '--help']],
    [['memory', 'search', 'orders', '-h']],
    [['memory', 'search', 'orders', '--cwd', '.']],
    [['memory', 'search', 'orders', '--limit', 'abc']],
    [['memory', 'search', 'orders', '--limit', '2.5']],
    [['memory', 'search', 'orders', '--limit', '2', '--limit', '3']],
    [['memory', 'search', 'orders', '--threshold', 'high']],
    [['memory', 'search', 'orders', '--layer']],
    [['memory', 'search', 'orders', '--layer', '--json']],
    [['memory', 'search', 'orders', '--json=true']],
    [['memory', 'search', '--', 'orders']],
  ])('leaves %j to mk itself, which says what is wrong', (argv) => {
    expect(searchInvocation(argv)).toBeUndefined()
  })

  it("loads only Node built-ins and a few of mk's own small modules: no schema library, no oclif", () => {
    const graph = staticImportGraph('src/hosts/cli/search-fast-path.ts')
    expect(graph.packages.filter((name) => !name.startsWith('node:'))).toEqual([])
    expect(graph.files.length).toBeLessThanOrEqual(20)
  })
})
