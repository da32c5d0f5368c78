import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connectMk, timed } from './mcp-client.js'
import { median, round, timeMk } from './measure.js'

/** Subjects by topic, so generated rules read like an organisation's and the task vocabulary finds them. */
const subjects: Record<string, string[]> = {
  security: ['input from clients', 'session tokens', 'secrets', 'passwords', 'outbound TLS calls'],
  privacy: ['customer addresses', 'personal data', 'phone numbers', 'consent records', 'e-mail addresses'],
  persistence: ['new tables', 'schema migrations', 'database queries', 'primary keys', 'Postgres indexes'],
  api: ['public endpoints', 'error responses', 'list endpoints', 'webhook payloads', 'request handlers'],
  testing: ['unit tests', 'integration tests', 'test fixtures', 'flaky tests', 'coverage reports'],
  frontend: ['React components', 'form fields', 'page layouts', 'CSS tokens', 'buttons'],
  observability: ['log lines', 'metrics', 'traces', 'alerts', 'dashboards'],
  infrastructure: ['Docker images', 'Kubernetes jobs', 'Terraform modules', 'deploy pipelines', 'queues'],
}
const verbs = ['be reviewed before release', 'carry an owner', 'be documented in the runbook', 'stay under the agreed limits', 'be checked in CI']
const keywords = ['MUST', 'MUST NOT', 'SHOULD', 'SHOULD NOT', 'MAY']
const layers = ['presentation', 'application', 'domain', 'persistence', 'infrastructure']
const topicNames = Object.keys(subjects)

/** `items` policies of two sections with five rules each, in a project knowledge folder. */
export async function rulesWorkspace(items: number, provider: 'none' | 'bundled'): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'mk-bench-rules-'))
  const dir = join(root, 'knowledge', 'policies')
  await mkdir(dir, { recursive: true })
  await writeFile(join(root, '.mkrc'), `search:\n  embedding:\n    provider: ${provider}\n`)
  for (let item = 0; item < items; item++) {
    const topics = [topicNames[item % topicNames.length] ?? 'api', topicNames[(item * 3 + 1) % topicNames.length] ?? 'api']
    const frontmatter = [
      '---',
      `id: policy-${item}`,
      `title: Policy ${item} on ${topics[0]}`,
      'type: policy',
      `topics: [${topics.join(', ')}]`,
      ...(item % 4 === 0 ? [`applies_to: [${layers[item % layers.length]}]`] : []),
      ...(item % 20 === 0 ? [`authoritative_for: [${topics[0]}]`] : []),
      '---',
    ]
    const sections = topics.map((topic, section) => {
      const rules = Array.from({ length: 5 }, (_, rule) => {
        const subject = subjects[topic]?.[(item + rule) % 5] ?? 'services'
        const keyword = keywords[(item + section + rule) % keywords.length] ?? 'SHOULD'
        return `${subject[0]?.toUpperCase()}${subject.slice(1)} in area ${item % 37} ${keyword} ${verbs[(item + rule) % verbs.length]}.`
      })
      return `## ${topic} rules ${section + 1}\n\n${rules.join(' ')}\n`
    })
    await writeFile(join(dir, `policy-${item}.md`), `${frontmatter.join('\n')}\n# Policy ${item}\n\n${sections.join('\n')}`)
  }
  return root
}

const tasks = [
  'add a new endpoint that stores customer addresses in Postgres',
  'fix the flaky integration tests for the billing service',
  'add a dashboard and alerts for queue latency',
  'refactor the checkout form component',
  'rotate the session tokens of the admin API',
  'write a migration that adds a primary key to the orders table',
]

/** rules_query_directives inside one long-lived `mk mcp`: the first call (index the knowledge, extract directives) and warm calls. */
async function directivesInServer(root: string, provider: 'none' | 'bundled'): Promise<Record<string, unknown>> {
  const client = await connectMk(root)
  const call = (task: string) => client.callTool({ name: 'rules_query_directives', arguments: { taskDescription: task } }, undefined, { timeout: 1_800_000 })
  const first = await timed(() => call(tasks[0] ?? ''))
  const warm: number[] = []
  for (let run = 0; run < 30; run++) warm.push(await timed(() => call(`${tasks[run % tasks.length] ?? ''} (${run})`)))
  await client.close()
  return { provider, first_call_ms: round(first), warm_median_ms: round(median(warm)), runs: warm.length, budget_ms: 50, within_budget: median(warm) <= 50 }
}

/** Issue 14's budgets: rules_query_directives ≤ 50 ms inside the MCP server at 1,000 items / 10,000 directives; `mk rules directives` ≤ 400 ms as a whole process. */
export async function benchRules(): Promise<Record<string, unknown>> {
  const large = await rulesWorkspace(1000, 'none')
  const server = await directivesInServer(large, 'none')
  const processTiming = timeMk(['rules', 'directives', tasks[0] ?? ''], { cwd: large, env: { MK_HOME: join(large, '.mk-home') }, budgetMs: 400 })
  // The bundled encoder embeds about 43 short texts a second here, so hybrid is measured on a tenth of the size.
  const hybrid = await rulesWorkspace(100, 'bundled')
  const hybridServer = await directivesInServer(hybrid, 'bundled')
  const hybridProcess = timeMk(['rules', 'directives', tasks[0] ?? ''], { cwd: hybrid, env: { MK_HOME: join(hybrid, '.mk-home') }, budgetMs: 400 })
  for (const root of [large, hybrid]) await rm(root, { recursive: true, force: true })
  return {
    fulltext_1000_items_10000_directives: { in_server: server, whole_process: processTiming },
    hybrid_100_items_1000_directives: { in_server: hybridServer, whole_process: hybridProcess },
    note: 'whole_process repeats one task, so its query vector comes from the cache after the first run; in_server varies the task on every call',
  }
}
