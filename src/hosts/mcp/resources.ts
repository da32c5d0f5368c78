import type { ErrorObject } from '../../errors.js'
import { McpHostError, type McpHost, type McpPromptMessage, type McpResource } from './host.js'
import type { DispatchOutcome } from '../../tools/dispatcher.js'
import { oneLine } from '../../text.js'

/** Runs one of mk's read-only tools by name through the dispatcher; undefined when the profile does not offer it. */
export type RunTool = (name: string, input: Record<string, unknown>) => Promise<DispatchOutcome | undefined>

type Served = Pick<McpHost, 'resourceTemplates' | 'listResources' | 'readResource' | 'prompts' | 'getPrompt'>

const knowledgePrefix = 'mk://knowledge/'
const memoryPrefix = 'mk://memory/'
const mimeType = 'text/markdown'

interface KnowledgeSummary {
  id: string
  type: string
  layer: string
  title: string
  status: string
}

interface MemorySummary {
  memoryId: string
  layer: string
  content: string
}

function failure(error: ErrorObject): McpHostError {
  return new McpHostError(
    `${error.errorCode}: ${error.message}`,
    error.errorCode === 'NOT_FOUND' ? 'notFound' : error.errorCode === 'INVALID_INPUT' ? 'invalidParams' : 'internal',
  )
}

/** The tool's output, or an McpHostError carrying its error; undefined when the tool is not offered. */
async function outputOf<Output>(run: RunTool, name: string, input: Record<string, unknown>): Promise<Output | undefined> {
  const outcome = await run(name, input)
  if (outcome === undefined) return undefined
  if (!outcome.ok) throw failure(outcome.error)
  return outcome.output as Output
}

async function displayOf(run: RunTool, uri: string, name: string, input: Record<string, unknown>): Promise<string> {
  const outcome = await run(name, input)
  if (outcome === undefined) throw new McpHostError(`${uri}: this server does not offer ${name}`, 'notFound')
  if (!outcome.ok) throw failure(outcome.error)
  return outcome.display
}

/** A prompt section from a search that may fail (no index yet): the failure is said, not hidden. */
async function section<Output>(run: RunTool, name: string, input: Record<string, unknown>, render: (output: Output) => string[]): Promise<string[]> {
  try {
    const output = await outputOf<Output>(run, name, input)
    return output === undefined ? [] : render(output)
  } catch (error) {
    return [`(${name} failed: ${error instanceof Error ? error.message : String(error)})`]
  }
}

/**
 * Knowledge items and memories as MCP resources (`mk://knowledge/<id>`, `mk://memory/<id>`),
 * and a `task-start` prompt that gathers the rules and what else is relevant to a task. All of it runs mk's
 * read-only tools, so it sees exactly what those tools see.
 */
export function knowledgeResources(run: RunTool): Served {
  return {
    resourceTemplates: [
      {
        uriTemplate: `${knowledgePrefix}{id}`,
        name: 'knowledge-item',
        title: 'Knowledge item',
        description: 'An ADR, policy, pattern, spec or rule by id, as knowledge_show renders it',
        mimeType,
      },
      { uriTemplate: `${memoryPrefix}{memoryId}`, name: 'memory', title: 'Memory', description: 'A memory by id, as memory_show renders it', mimeType },
    ],

    async listResources() {
      const knowledge = await outputOf<{ items: KnowledgeSummary[] }>(run, 'knowledge_list', {})
      const memories = await outputOf<{ memories: MemorySummary[] }>(run, 'memory_list', { limit: 1000 })
      const items: McpResource[] = (knowledge?.items ?? []).map((item) => ({
        uri: `${knowledgePrefix}${item.id}`,
        name: item.id,
        title: item.title,
        description: `${item.type}, ${item.status}, ${item.layer} layer`,
        mimeType,
      }))
      const facts: McpResource[] = (memories?.memories ?? []).map((memory) => ({
        uri: `${memoryPrefix}${memory.memoryId}`,
        name: memory.memoryId,
        title: oneLine(memory.content, 60),
        description: `${memory.layer} memory`,
        mimeType,
      }))
      return [...items, ...facts]
    },

    async readResource(uri) {
      const id = decodeURIComponent(
        uri.startsWith(knowledgePrefix) ? uri.slice(knowledgePrefix.length) : uri.startsWith(memoryPrefix) ? uri.slice(memoryPrefix.length) : '',
      )
      if (id === '') throw new McpHostError(`no resource at ${uri}: mk serves ${knowledgePrefix}<id> and ${memoryPrefix}<id>`, 'notFound')
      const text = uri.startsWith(knowledgePrefix)
        ? await displayOf(run, uri, 'knowledge_show', { id })
        : await displayOf(run, uri, 'memory_show', { memoryId: id })
      return { uri, mimeType, text }
    },

    prompts: [
      {
        name: 'task-start',
        title: 'Start a task with what mk knows',
        description:
          'The rules that apply to a task (ranked, cited MUST/SHOULD/MAY directives), the knowledge items behind them and the memories relevant to it, to read before planning it.',
        arguments: [{ name: 'task', description: 'What you are about to do, in a sentence or two', required: true }],
      },
    ],

    async getPrompt(name, args) {
      if (name !== 'task-start') throw new McpHostError(`no prompt named "${name}": mk offers task-start`, 'invalidParams')
      const task = args.task?.trim() ?? ''
      if (task === '') throw new McpHostError('task-start needs the argument "task": what you are about to do', 'invalidParams')
      const rules = await section<{ context_block: string }>(
        run,
        'rules_query_directives',
        { taskDescription: task, options: { includeMemories: false } },
        (output) => [output.context_block.trimEnd()],
      )
      const knowledge = await section<{ items: KnowledgeSummary[] }>(run, 'knowledge_query', { text: task, limit: 5 }, (output) =>
        output.items.map((item) => `- ${item.id}: ${item.title} (${item.type}, ${item.status}; read ${knowledgePrefix}${item.id})`),
      )
      // A task is not a question: its nearest memories are suggestions, so no threshold drops them (ADR 0031).
      const memories = await section<{ results: MemorySummary[] }>(run, 'memory_search', { query: task, limit: 5, threshold: 0 }, (output) =>
        output.results.map((memory) => `- ${oneLine(memory.content, 200)} (${memory.layer}, ${memory.memoryId})`),
      )
      const text = [
        `Task: ${task}`,
        '',
        ...(rules.length === 0 ? [] : [...rules, '']),
        'Knowledge that may govern it (accepted decisions and rules):',
        ...(knowledge.length === 0 ? ['- none found'] : knowledge),
        '',
        'Memories that may help:',
        ...(memories.length === 0 ? ['- none found'] : memories),
        '',
        'Follow the knowledge above; run knowledge_check before adding a dependency; store durable facts you learn with memory_add.',
      ].join('\n')
      const message: McpPromptMessage = { role: 'user', content: { type: 'text', text } }
      return { description: `What mk knows about: ${oneLine(task, 80)}`, messages: [message] }
    },
  }
}
