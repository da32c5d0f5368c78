import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { MkError } from '../errors.js'
import { packageRoot } from '../package-root.js'
import { insideWorkspace, resolvesWithin } from '../fs/path-guard.js'
import { beirFiles } from './beir.js'

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

function splitDatasetSpec(spec: string): { kind: DatasetKind; given: string | undefined } {
  const match = /^(beir|locomo|team)(?::(.+))?$/.exec(spec.trim())
  if (match === null) {
    throw new MkError('INVALID_INPUT', `invalid dataset ${JSON.stringify(spec)}: expected beir:DIR, locomo:FILE or team:FILE`, {
      details: {
        field: 'dataset',
        hint: 'e.g. --dataset beir:./scifact (corpus.jsonl, queries.jsonl, qrels/test.tsv) or --dataset locomo:./locomo10.json or --dataset team:./memories.json',
      },
    })
  }
  return { kind: match[1] as DatasetKind, given: match[2] }
}

/**
 * `beir:DIR`, `locomo:FILE` or `team:FILE` (relative to `cwd`); a bare `beir` or `locomo`
 * means SciFact or LoCoMo dev inside the benchmark folder, a bare `team` mk's team-dev set.
 */
export function parseDatasetSpec(spec: string, options: { cwd: string; benchDir: string }): DatasetSpec {
  const { kind, given } = splitDatasetSpec(spec)
  return { kind, path: given === undefined ? defaults[kind](options.benchDir) : resolve(options.cwd, given) }
}

/**
 * The dataset of an eval_run a tenant asks `mk serve` for: a path it gives is relative to
 * its workspace and must stay inside it, as written and on disk (every file a BEIR folder
 * is read from included). A path outside and a path that does not exist get the same
 * answer, so the server's own files cannot be probed. A bare name is a suite the operator
 * provides: `team` ships with mk, `beir` and `locomo` are read from MK_BENCH_DIR only when the operator set it.
 */
export function parseServedDatasetSpec(spec: string, options: { root: string; benchDir: string | undefined }): DatasetSpec {
  const { kind, given } = splitDatasetSpec(spec)
  if (given === undefined) {
    if (kind === 'team') return { kind, path: defaults.team(options.root) }
    if (options.benchDir === undefined) {
      throw new MkError('INVALID_INPUT', `dataset ${JSON.stringify(spec)}: this server offers no ${kind} benchmark (its operator has not set MK_BENCH_DIR)`, {
        details: {
          field: 'dataset',
          hint: `upload the dataset into the workspace and name it, e.g. ${kind}:bench/${kind === 'beir' ? 'scifact' : 'locomo10.json'}`,
        },
      })
    }
    return { kind, path: defaults[kind](options.benchDir) }
  }
  const inside = insideWorkspace(options.root, given)
  const folder = [{ path: options.root, name: 'the workspace' }]
  const read =
    inside === undefined ? [] : kind === 'beir' ? Object.values(beirFiles).map((file) => join(options.root, inside, file)) : [join(options.root, inside)]
  if (inside === undefined || !read.every((file) => resolvesWithin(folder, file) && existsSync(file))) {
    throw new MkError(
      'NOT_FOUND',
      `dataset ${JSON.stringify(spec)}: the workspace has no ${kind === 'beir' ? 'BEIR folder' : 'file'} ${JSON.stringify(given)}`,
      {
        details: {
          field: 'dataset',
          hint:
            kind === 'beir'
              ? 'name a folder inside the workspace, relative to its root, holding corpus.jsonl, queries.jsonl and qrels/test.tsv'
              : 'name a file inside the workspace, relative to its root',
        },
      },
    )
  }
  return { kind, path: join(options.root, inside) }
}
