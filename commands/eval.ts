import * as Flags from '@oclif/core/flags'
import { MkCommand } from '../src/hosts/cli/base-command.js'
import { progressReporter } from '../src/hosts/cli/progress.js'
import { evalRun } from '../src/tools/eval/run.js'

export default class Eval extends MkCommand {
  static override summary = evalRun.title
  static override description = evalRun.description
  static override examples = [
    '<%= config.bin %> eval --dataset beir:./scifact --mode hybrid',
    '<%= config.bin %> eval --dataset locomo:./locomo10.json --mode fulltext --mode vector --mode hybrid',
    '<%= config.bin %> eval --dataset locomo --limit-queries 100 --json',
    '<%= config.bin %> eval --dataset team:bench/recall/team-holdout.json --mode fulltext --mode hybrid',
  ]
  static override flags = {
    dataset: Flags.string({
      description:
        "beir:DIR (corpus.jsonl, queries.jsonl, qrels/test.tsv), locomo:FILE or team:FILE (team memories and questions); bare beir or locomo reads $MK_BENCH_DIR (default ../shared/bench), bare team is mk's team-dev set. One dataset per run.",
      required: true,
    }),
    mode: Flags.string({ description: 'Search mode to measure; repeat for several.', options: ['fulltext', 'vector', 'hybrid'], multiple: true }),
    'limit-queries': Flags.integer({ description: 'Score only the first N queries.', min: 1 }),
    'text-weight': Flags.string({
      description: 'Weight of full text in hybrid ranking, 0..1 (default: search.textWeight for beir, search.memoryTextWeight for locomo and team).',
    }),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(Eval)
    const progress = progressReporter(process.stderr)
    try {
      await this.callTool(
        evalRun,
        {
          dataset: flags.dataset,
          mode: flags.mode,
          limitQueries: flags['limit-queries'],
          textWeight: flags['text-weight'] === undefined ? undefined : Number(flags['text-weight']),
        },
        flags,
        { progress: progress.report },
      )
    } finally {
      await progress.finish()
    }
  }
}
