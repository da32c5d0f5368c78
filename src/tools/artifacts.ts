import { z } from 'zod'
import { lazy } from '../lazy.js'

/**
 * What a call produced (seed 001's `ToolResult.artifacts`: files created or modified, memory
 * records written), reported beside its output; a memory or knowledge item is named by its id.
 */
export const artifactSchema = lazy(() =>
  z.strictObject({
    kind: z.enum(['file', 'folder', 'memory', 'knowledge_item']),
    action: z.enum(['created', 'modified', 'deleted']),
    path: z
      .string()
      .optional()
      .describe("A file's, folder's or knowledge item's path as the tool's output gives it (workspace-relative, or absolute where the output is)"),
    id: z.string().optional().describe('The id of a memory or knowledge item'),
  }),
)

export type Artifact = z.output<ReturnType<typeof artifactSchema>>

type Reader = (input: unknown, output: unknown) => Artifact[]

/** Reads the fields it names from a call's input and output; a shape it does not know reports nothing. */
function reader<Input extends z.ZodType, Output extends z.ZodType>(
  input: Input,
  output: Output,
  artifacts: (input: z.output<Input>, output: z.output<Output>) => Artifact[],
): Reader {
  return (rawInput, rawOutput) => {
    const parsedInput = input.safeParse(rawInput)
    const parsedOutput = output.safeParse(rawOutput)
    return parsedInput.success && parsedOutput.success ? artifacts(parsedInput.data, parsedOutput.data) : []
  }
}

const anything = lazy(() => z.unknown())
const ids = lazy(() => z.array(z.string()))
const changedAction = (action: string): Artifact['action'] | undefined =>
  action === 'created' ? 'created' : action === 'updated' || action === 'replaced' || action === 'written' ? 'modified' : undefined
const memories = (list: readonly string[], action: Artifact['action']): Artifact[] => list.map((id) => ({ kind: 'memory', action, id }))

/**
 * The artifacts of each tool that changes something a person would look at. Derived state
 * (the index, the activation ledger, clones of knowledge sources) is not an artifact. A tool's
 * reader is built at its first call that reports: building every tool's schemas cost each
 * short command a few milliseconds of start-up, and a terminal call reports none.
 */
const readerBuilders: Readonly<Record<string, () => Reader>> = {
  init: () =>
    reader(anything(), z.looseObject({ created: z.array(z.string()) }), (_, output) =>
      output.created.map((path) => ({ kind: 'file', action: 'created', path })),
    ),
  knowledge_new: () =>
    reader(anything(), z.looseObject({ id: z.string(), path: z.string() }), (_, output) => [
      { kind: 'knowledge_item', action: 'created', id: output.id, path: output.path },
    ]),
  knowledge_update_baseline: () =>
    reader(anything(), z.looseObject({ file: z.string(), added: z.number(), pruned: z.number() }), (_, output) =>
      output.added + output.pruned > 0 ? [{ kind: 'file', action: 'modified', path: output.file }] : [],
    ),
  hook_install: () =>
    reader(anything(), z.looseObject({ path: z.string(), action: z.string() }), (_, output) => {
      const action = changedAction(output.action)
      return action === undefined ? [] : [{ kind: 'file', action, path: output.path }]
    }),
  memory_add: () =>
    reader(anything(), z.looseObject({ memoryId: z.string(), deduplicated: z.boolean() }), (_, output) =>
      output.deduplicated ? [] : memories([output.memoryId], 'created'),
    ),
  memory_delete: () => reader(z.looseObject({ memoryId: z.string() }), anything(), (input) => memories([input.memoryId], 'deleted')),
  memory_restore: () => reader(anything(), z.looseObject({ memoryId: z.string() }), (_, output) => memories([output.memoryId], 'created')),
  memory_maintain: () =>
    reader(anything(), z.looseObject({ applied: z.boolean(), moves: z.array(z.looseObject({ memoryId: z.string() })) }), (_, output) =>
      output.applied
        ? memories(
            output.moves.map((move) => move.memoryId),
            'modified',
          )
        : [],
    ),
  memory_rehydrate: () => reader(anything(), z.looseObject({ moved: ids() }), (_, output) => memories(output.moved, 'modified')),
  memory_consolidate: () =>
    reader(anything(), z.looseObject({ applied: z.boolean(), clusters: z.array(z.looseObject({ canonical: z.string(), aliases: ids() })) }), (_, output) =>
      output.applied ? memories([...new Set(output.clusters.flatMap((cluster) => [cluster.canonical, ...cluster.aliases]))], 'modified') : [],
    ),
  model_pull: () =>
    reader(anything(), z.looseObject({ folder: z.string(), files: z.array(z.looseObject({ path: z.string() })) }), (_, output) =>
      output.files.map((file) => ({ kind: 'file', action: 'created', path: `${output.folder}/${file.path}` })),
    ),
  rules_upsert_markdown: () =>
    reader(anything(), z.looseObject({ items: z.array(z.looseObject({ id: z.string(), path: z.string(), action: z.string() })) }), (_, output) =>
      output.items.flatMap((item) => {
        const action = changedAction(item.action)
        return action === undefined ? [] : [{ kind: 'knowledge_item' as const, action, id: item.id, path: item.path }]
      }),
    ),
  rules_export_write: () =>
    reader(anything(), z.looseObject({ files: z.array(z.looseObject({ path: z.string(), action: z.string() })) }), (_, output) =>
      output.files.flatMap((file) => {
        const action = changedAction(file.action)
        return action === undefined ? [] : [{ kind: 'file' as const, action, path: file.path }]
      }),
    ),
  tools_feedback: () =>
    reader(anything(), z.looseObject({ rule_ids: ids() }), (_, output) => output.rule_ids.map((id) => ({ kind: 'knowledge_item', action: 'modified', id }))),
  site_build: () => reader(anything(), z.looseObject({ out: z.string() }), (_, output) => [{ kind: 'folder', action: 'modified', path: output.out }]),
}

/** The artifacts of one successful call, from its input and its output. */
export function artifactsOf(toolName: string, input: unknown, output: unknown): Artifact[] {
  if (!Object.hasOwn(readerBuilders, toolName)) return []
  let read = readers.get(toolName)
  if (read === undefined) {
    read = (readerBuilders[toolName] as () => Reader)()
    readers.set(toolName, read)
  }
  return read(input, output)
}

const readers = new Map<string, Reader>()

/** The tools whose calls report artifacts. */
export const toolsWithArtifacts: readonly string[] = Object.keys(readerBuilders)
