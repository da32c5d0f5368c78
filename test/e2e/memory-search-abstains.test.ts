import { afterEach, describe, expect, it } from 'vitest'
import { parseJson, runMk, type MkRun } from '../helpers/mk.js'
import { makeWorkspace, type TempWorkspace } from '../helpers/workspace.js'

interface SearchOutput {
  results: { content: string; score: number }[]
  abstained: boolean
  totalCount: number
}

const memories = [
  'We store everything in Postgres 15, one cluster per region.',
  'Pipelines run on GitHub Actions; the workflows live in .github/workflows.',
  'Metrics and dashboards live in Grafana, fed by Prometheus.',
  'Logs are shipped with Fluent Bit to OpenSearch and kept for 30 days.',
  'Errors from the web app and the API are reported to Sentry.',
  'Redis sits in front of the catalog API and caches product pages for five minutes.',
  'Background jobs go through RabbitMQ; the billing worker consumes the invoices queue.',
  'Production runs on AWS in us-east-1, with a warm standby in eu-west-1.',
  'Deploys are frozen from Friday 15:00 until Monday morning.',
  'Passwords are hashed with Argon2id.',
  "The team's working language is English, even in Slack.",
  'Sprint planning happens every other Monday; sprints are two weeks long.',
]

// Issue 29: a query nothing answers returns nothing by default (the specification's threshold 0.7 on calibrated scores).
describe('memory search abstains when no memory answers', () => {
  let ws: TempWorkspace | undefined
  afterEach(async () => {
    await ws?.cleanup()
    ws = undefined
  })

  it('returns nothing for gibberish and for a question no memory answers, and keeps the answer of one that does', async () => {
    const workspace = (ws = await makeWorkspace({ 'knowledge/.keep': '', '.mkrc': 'search:\n  embedding:\n    provider: none\n' }))
    const mk = (args: string[]): Promise<MkRun> =>
      runMk(args, { cwd: workspace.root, env: { MK_HOME: workspace.mkHome, MK_AGENT_ID: undefined, MK_SESSION_ID: undefined } })
    for (const content of memories) expect((await mk(['memory', 'add', content, '--layer', 'project'])).exitCode).toBe(0)

    for (const query of ['blorf snizzle wumpus quandary', 'what is the parental leave policy?', 'which Kafka topics does the billing service publish to?']) {
      const found = parseJson<SearchOutput>(await mk(['memory', 'search', query, '--json']))
      expect(found, query).toMatchObject({ results: [], abstained: true, totalCount: 0 })
    }
    const text = await mk(['memory', 'search', 'blorf snizzle wumpus quandary'])
    expect(text.exitCode).toBe(0)
    expect(text.stdout).toContain('No memory answers "blorf snizzle wumpus quandary": none scored at least 0.70 (fulltext), so the search abstained.')

    const answered = parseJson<SearchOutput>(await mk(['memory', 'search', 'where do grafana dashboards live?', '--json']))
    expect(answered.abstained).toBe(false)
    expect(answered.results[0]?.content).toBe('Metrics and dashboards live in Grafana, fed by Prometheus.')
    expect(answered.results[0]?.score).toBeGreaterThanOrEqual(0.7)

    // The nearest memories are still there for whoever asks for them.
    const nearest = parseJson<SearchOutput>(await mk(['memory', 'search', 'when is the sprint retrospective?', '--threshold', '0', '--json']))
    expect(nearest.abstained).toBe(false)
    expect(nearest.results[0]?.content).toContain('Sprint planning')
  })
})
