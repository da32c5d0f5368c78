import { join, resolve } from 'node:path'
import { MkError } from '../errors.js'

export type DatasetKind = 'beir' | 'locomo'

export interface DatasetSpec {
  kind: DatasetKind
  /** A BEIR folder or a LoCoMo JSON file, absolute. */
  path: string
}

/** Where the default datasets are found, inside the benchmark folder. */
const defaults: Record<DatasetKind, string> = {
  beir: 'scifact',
  locomo: join('locomo', 'locomo-dev.json'),
}

/**
 * `beir:DIR` or `locomo:FILE` (relative to `cwd`); a bare `beir` or `locomo`
 * means SciFact or LoCoMo dev inside the benchmark folder.
 */
export function parseDatasetSpec(spec: string, options: { cwd: string; benchDir: string }): DatasetSpec {
  const match = /^(beir|locomo)(?::(.+))?$/.exec(spec.trim())
  if (match === null) {
    throw new MkError('INVALID_INPUT', `invalid dataset ${JSON.stringify(spec)}: expected beir:DIR or locomo:FILE`, {
      details: { field: 'dataset', hint: 'e.g. --dataset beir:./scifact (corpus.jsonl, queries.jsonl, qrels/test.tsv) or --dataset locomo:./locomo10.json' },
    })
  }
  const kind = match[1] as DatasetKind
  const path = match[2] === undefined ? join(options.benchDir, defaults[kind]) : resolve(options.cwd, match[2])
  return { kind, path }
}
