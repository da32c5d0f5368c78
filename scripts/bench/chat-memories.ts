/**
 * Chat-length memories (one to four sentences, about 60-500 characters) as agents write them:
 * decisions, preferences, incidents and how-tos about a made-up team's systems. Deterministic,
 * so every run embeds and searches the same texts.
 */

/** Deterministic pseudo-random numbers in [0, 1). */
export function generator(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 2 ** 32
  }
}

const systems = [
  'the staging database',
  'the billing service',
  'the deploy pipeline',
  'the CI runners',
  'the search index',
  'the auth gateway',
  'the Kafka cluster',
  'the Redis cache',
  'the mobile app',
  'the data warehouse',
  'the metrics dashboard',
  'the invoice exporter',
  'the feature-flag service',
  'the onboarding flow',
  'the nightly backup job',
  'the API rate limiter',
]
const people = ['Alice', 'Bob', 'Priya', 'Chen', 'Marta', 'Omar', 'Lena', 'Tomás', 'Yuki', 'Sam']
const teams = ['platform', 'payments', 'growth', 'infra', 'data', 'mobile', 'security', 'support tooling']
const days = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'the weekend', 'end of quarter']
const tools = ['pnpm', 'Terraform', 'Helm', 'Grafana', 'pgbouncer', 'Sentry', 'Vitest', 'Playwright', 'ripgrep', 'Docker Compose']
const numbers = ['two', 'three', '15', '30', '200', '512', '10,000', '99.9%']

const templates: ((pick: <T>(list: readonly T[]) => T) => string)[] = [
  (p) => `${p(people)} said ${p(systems)} is owned by the ${p(teams)} team; page them first when it breaks.`,
  (p) => `Decision: we stopped deploying ${p(systems)} on ${p(days)} after the outage, releases go out earlier in the week.`,
  (p) => `${p(systems)} must stay under ${p(numbers)} ms p95; the budget was agreed with the ${p(teams)} team.`,
  (p) => `The user prefers ${p(tools)} over the alternatives for ${p(systems)} and asked not to switch without asking.`,
  (p) => `Incident on ${p(days)}: ${p(systems)} ran out of connections because ${p(systems)} retried without backoff. Fix was to cap retries at ${p(numbers)}.`,
  (p) => `To restore ${p(systems)} from backup, use ${p(tools)}, restore into a scratch schema first and let ${p(people)} check the row counts.`,
  (p) => `${p(people)} is on call for ${p(systems)} this week; ${p(people)} covers ${p(days)}.`,
  (p) => `Tests for ${p(systems)} are flaky under load: run them with ${p(tools)} on ${p(numbers)} workers at most.`,
  (p) => `The ${p(teams)} team wants every change to ${p(systems)} reviewed by two people, one of them from security.`,
  (p) => `Remember that ${p(systems)} reads its settings from environment variables, not the config file, since the migration ${p(people)} did.`,
  (p) => `${p(tools)} is pinned in ${p(systems)} because newer versions broke the build; ${p(people)} tracks the upstream fix.`,
  (p) => `Customer reports about ${p(systems)} go to the ${p(teams)} channel, and anything about invoices also to ${p(people)}.`,
]

/** One memory: one to four sentences drawn from the templates. */
export function chatMemory(random: () => number, serial: number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T
  const sentences = 1 + Math.floor(random() * random() * 4)
  const parts = Array.from({ length: sentences }, () => pick(templates)(pick))
  // A number of its own keeps texts distinct, as real memories are.
  return `${parts.join(' ')} (ref ${serial})`
}

export function chatMemories(count: number, seed = 42): string[] {
  const random = generator(seed)
  return Array.from({ length: count }, (_, serial) => chatMemory(random, serial))
}

/** Questions an agent asks of such a store. */
export const chatQueries = [
  'who owns the billing service',
  'when are we allowed to deploy',
  'how do I restore the database from a backup',
  'latency budget for the search index',
  'who is on call this week',
  'why are the tests flaky',
  'which tool does the user prefer',
  'where do customer complaints about invoices go',
  'why is a dependency pinned',
  'what caused the connection outage',
]
