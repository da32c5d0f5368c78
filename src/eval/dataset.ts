import { join, resolve } from 'node:path'
import { MkError } from '../errors.js'
import { packageRoot } from '../fs/package-root.js'

export type DatasetKind = 'beir' | 'locomo' | 'team'

export interface DatasetSpec {
  kind: DatasetKind
  /** A BEIR folder or a LoCoMo JSON file, absolute. */
  path: string
}

/** Where the default datasets are found: the public benchmarks in the benchmark folder, mk's own team set in its repository. */
const defaults: Record<DatasetKind, (benchDir: string) => string> = {
  beir: (benchDir) => join(benchDir, 'scifact'),
  locomo: (benchDir) => join(benchDir, 'locomo', 'locomo-dev.json'),
  team: () => join(packageRoot(), 'bench', 'recall', 'team-dev.json'),
}

/**
 * `beir:DIR`, `locomo:FILE` or `team:FILE` (relative to `cwd`); a bare `beir` or `locomo`
 * means SciFact or LoCoMo dev inside the benchmark folder, a bare `team` mk's team-dev set.
 */
export function parseDatasetSpec(spec: string, options: { cwd: string; benchDir: string }): DatasetSpec {
  const match = /^(beir|locomo|team)(?::(.+))?$/.exec(spec.trim())
  if (match === null) {
    throw new MkError('INVALID_INPUT', `invalid dataset ${JSON.stringify(spec)}: expected beir:DIR, locomo:FILE or team:FILE`, {
      details: {
        field: 'dataset',
        hint: 'e.g. --dataset beir:./scifact (corpus.jsonl, queries.jsonl, qrels/test.tsv) or --dataset locomo:./locomo10.json or --dataset team:./memories.json',
      },
    })
  }
  const kind = match[1] as DatasetKind
  const path = match[2] === undefined ? defaults[kind](options.benchDir) : resolve(options.cwd, match[2])
  return { kind, path }
}
