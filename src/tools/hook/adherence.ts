import { z } from 'zod'
import { defineTool } from '../define.js'

/**
 * How the team's rules fared in Claude Code sessions. Not in the registry: it reads the user's own
 * transcripts from disk, which only the person at the terminal should be able to point it at.
 */
export const rulesAdherence = defineTool({
  name: 'rules_adherence',
  title: 'Rule adherence in agent sessions',
  description:
    "Read Claude Code session transcripts (default: this project's folder under ~/.claude/projects) and report per accepted constraint how many file-writing tool calls would have added a violation (attempts), how many the hook refused (denied) and how many violations are in the working tree now (inTree); per directive how often the hooks served it.",
  tier: 'read_only',
  idempotent: true,
  timeoutMs: 10 * 60 * 1000,
  input: z.strictObject({
    transcripts: z.array(z.string().min(1)).optional().describe('Transcript files (*.jsonl) or folders of them'),
  }),
  output: z.strictObject({
    transcripts: z.number().int(),
    toolCalls: z.number().int(),
    constraints: z.array(
      z.strictObject({ constraintId: z.string(), knowledgeItemId: z.string(), attempts: z.number().int(), denied: z.number().int(), inTree: z.number().int() }),
    ),
    directives: z.array(z.strictObject({ directiveId: z.string(), itemId: z.string(), served: z.number().int() })),
  }),
  examples: [
    {
      title: 'A week of sessions',
      input: {},
      output: {
        transcripts: 12,
        toolCalls: 840,
        constraints: [{ constraintId: 'no-console-log', knowledgeItemId: 'adr-0001-logging', attempts: 5, denied: 5, inTree: 2 }],
        directives: [{ directiveId: 'adr-0001-logging#decision-1', itemId: 'adr-0001-logging', served: 31 }],
      },
    },
  ],
  async run(input, ctx) {
    const [{ readTranscripts, claudeProjectFolder }, { adherenceOf }, { loadKnowledge }, { collectAccepted }] = await Promise.all([
      import('../../hook/transcript-files.js'),
      import('../../hook/adherence.js'),
      import('../../knowledge/load.js'),
      import('../../directives/export/collect.js'),
    ])
    const paths = input.transcripts ?? [claudeProjectFolder(ctx.workspace.root)]
    const transcripts = await readTranscripts(paths, input.transcripts === undefined ? 'the Claude Code project folder' : '--transcript', ctx.warn)
    const directives = collectAccepted(await loadKnowledge(ctx.workspace)).flatMap((item) => item.directives)
    return { output: await adherenceOf(ctx.workspace, transcripts, directives) }
  },
  render(report) {
    const lines = [
      `${report.transcripts} transcripts, ${report.toolCalls} tool calls`,
      '',
      'constraint                      attempts  denied  in tree',
      ...report.constraints.map(
        (row) => `${row.constraintId.padEnd(32)}${String(row.attempts).padStart(8)}${String(row.denied).padStart(8)}${String(row.inTree).padStart(9)}`,
      ),
      '',
      'directive                                         served',
      ...report.directives.map((row) => `${row.directiveId.padEnd(50)}${String(row.served).padStart(6)}`),
    ]
    return lines.join('\n')
  },
})
