import { mkdtemp, rm, symlink, writeFile, mkdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadBeir } from '../../../src/eval/beir.js'
import { parseDatasetSpec, parseServedDatasetSpec } from '../../../src/eval/dataset.js'
import { loadLocomo, normaliseEvidence, turnText } from '../../../src/eval/locomo.js'
import { failure } from '../../helpers/errors.js'

const fixtures = fileURLToPath(new URL('../../fixtures/eval/', import.meta.url))

describe('BEIR loader', () => {
  it('reads the corpus and only the queries with test judgments', async () => {
    const dataset = await loadBeir(join(fixtures, 'beir-tiny'))
    expect(dataset.documents).toHaveLength(4)
    expect(dataset.documents[0]).toEqual({ id: 'd1', title: 'Postgres at scale', text: 'We store every relational record in a PostgreSQL database cluster.' })
    expect(dataset.queries.map((query) => query.id)).toEqual(['q1', 'q2'])
    expect(dataset.queries[1]?.grades).toEqual(
      new Map([
        ['d3', 2],
        ['d2', 0],
      ]),
    )
  })

  describe('bad datasets', () => {
    let dir: string
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'mk-beir-'))
    })
    afterAll(() => rm(dir, { recursive: true, force: true }))

    const write = async (files: Record<string, string>): Promise<string> => {
      const folder = await mkdtemp(join(dir, 'set-'))
      for (const [name, content] of Object.entries(files)) {
        await mkdir(join(folder, name, '..'), { recursive: true })
        await writeFile(join(folder, name), content)
      }
      return folder
    }
    const good = {
      'corpus.jsonl': '{"_id": "d1", "title": "t", "text": "x"}\n',
      'queries.jsonl': '{"_id": "q1", "text": "x"}\n',
      'qrels/test.tsv': 'query-id\tcorpus-id\tscore\nq1\td1\t1\n',
    }

    it('names a missing file', async () => {
      const folder = await write({ 'corpus.jsonl': good['corpus.jsonl'], 'queries.jsonl': good['queries.jsonl'] })
      const error = await failure(loadBeir(folder))
      expect(error.code).toBe('NOT_FOUND')
      expect(error.message).toBe(`cannot read BEIR qrels ${join(folder, 'qrels', 'test.tsv')}: no such file`)
    })

    it('names the file and line of a malformed row', async () => {
      const corpus = await failure(loadBeir(await write({ ...good, 'corpus.jsonl': '{"_id": "d1", "text": "x"}\n{"_id": "d2", "text": \n' })))
      expect(corpus.code).toBe('INVALID_INPUT')
      expect(corpus.message).toMatch(/corpus\.jsonl:2: not valid JSON/)
      const qrels = await failure(loadBeir(await write({ ...good, 'qrels/test.tsv': 'query-id\tcorpus-id\tscore\nq1\td1\n' })))
      expect(qrels.message).toMatch(/test\.tsv:2: expected "query-id<TAB>corpus-id<TAB>score"/)
      const field = await failure(loadBeir(await write({ ...good, 'queries.jsonl': '{"_id": "q1"}\n' })))
      expect(field.message).toMatch(/queries\.jsonl:1: field "text" must be a string/)
    })

    it('refuses judgments of a query that does not exist', async () => {
      const error = await failure(loadBeir(await write({ ...good, 'qrels/test.tsv': 'q9\td1\t1\n' })))
      expect(error.message).toContain('judges query q9, which is not in queries.jsonl')
    })
  })
})

describe('LoCoMo loader', () => {
  it('makes one document per turn with the protocol text, image captions included', async () => {
    const [first, second] = await loadLocomo(join(fixtures, 'locomo-tiny.json'))
    expect(first?.id).toBe('conv-a')
    expect(first?.turns.map((turn) => turn.id)).toEqual(['D1:1', 'D1:2', 'D1:3', 'D2:1', 'D2:2'])
    expect(first?.turns[0]?.text).toBe('Ann said, "I adopted a puppy named Rex last week!"')
    expect(first?.turns[1]?.text).toBe('Bob said, "Congrats! Look at my new bike." and shared a photo of a red bicycle')
    expect(second?.turns).toHaveLength(2)
  })

  it('normalises evidence: splits, strips leading zeros, drops ids that do not exist', async () => {
    const [first, second] = await loadLocomo(join(fixtures, 'locomo-tiny.json'))
    expect(first?.questions.map((question) => question.evidence)).toEqual([['D1:1'], ['D1:2'], ['D1:1', 'D2:2'], []])
    expect(first?.questions.map((question) => question.category)).toEqual([4, 4, 1, 5])
    expect(second?.questions[1]?.evidence).toEqual(['D1:2', 'D1:1'])
  })

  it('normaliseEvidence and turnText on their own', () => {
    const existing = new Set(['D1:3', 'D10:20', 'D2:1'])
    expect(normaliseEvidence(['D1:03', 'D10:020;D2:1', 'D', 'D:11:26', 'D1:3'], existing)).toEqual(['D1:3', 'D10:20', 'D2:1'])
    expect(turnText({ speaker: 'Ann', text: 'hi' })).toBe('Ann said, "hi"')
    expect(turnText({ speaker: 'Ann', text: 'hi', blip_caption: '' })).toBe('Ann said, "hi"')
  })

  it('rejects a file that is not LoCoMo', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mk-locomo-'))
    try {
      await writeFile(join(dir, 'a.json'), '{"qa": []}')
      expect((await failure(loadLocomo(join(dir, 'a.json')))).message).toContain('expected a JSON array of conversations')
      await writeFile(join(dir, 'b.json'), '[{"sample_id": "c1", "conversation": {"session_1": [{"speaker": "A"}]}, "qa": []}]')
      expect((await failure(loadLocomo(join(dir, 'b.json')))).message).toContain('c1 session_1: every turn needs string fields dia_id, speaker and text')
      await writeFile(join(dir, 'c.json'), '[{')
      expect((await failure(loadLocomo(join(dir, 'c.json')))).message).toContain('not valid JSON')
      expect((await failure(loadLocomo(join(dir, 'missing.json')))).code).toBe('NOT_FOUND')
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('dataset spec', () => {
  const options = { cwd: '/work/repo', benchDir: '/work/shared/bench' }

  it('resolves paths against the working directory, and bare names into the benchmark folder', () => {
    expect(parseDatasetSpec('beir:data/scifact', options)).toEqual({ kind: 'beir', path: '/work/repo/data/scifact' })
    expect(parseDatasetSpec('locomo:/data/locomo10.json', options)).toEqual({ kind: 'locomo', path: '/data/locomo10.json' })
    expect(parseDatasetSpec('beir', options)).toEqual({ kind: 'beir', path: '/work/shared/bench/scifact' })
    expect(parseDatasetSpec('locomo', options)).toEqual({ kind: 'locomo', path: '/work/shared/bench/locomo/locomo-dev.json' })
  })

  it('rejects anything else, saying what is expected', () => {
    expect(() => parseDatasetSpec('msmarco:x', options)).toThrow('invalid dataset "msmarco:x": expected beir:DIR, locomo:FILE or team:FILE')
  })
})

describe('dataset spec of a tenant of mk serve', () => {
  let root: string
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'mk-served-dataset-'))
    await mkdir(join(root, 'scifact', 'qrels'), { recursive: true })
    for (const file of ['corpus.jsonl', 'queries.jsonl', 'qrels/test.tsv']) await writeFile(join(root, 'scifact', file), '')
  })
  afterAll(() => rm(root, { recursive: true, force: true }))

  it('reads a BEIR folder only when every file it reads is in the workspace', async () => {
    expect(parseServedDatasetSpec('beir:scifact', { root, benchDir: undefined })).toEqual({ kind: 'beir', path: join(root, 'scifact') })
    await rm(join(root, 'scifact', 'qrels', 'test.tsv'))
    await symlink('/etc/hostname', join(root, 'scifact', 'qrels', 'test.tsv'))
    expect(() => parseServedDatasetSpec('beir:scifact', { root, benchDir: undefined })).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }))
  })

  it('offers bare beir and locomo only from the benchmark folder the operator set, and the bundled team set always', () => {
    expect(() => parseServedDatasetSpec('beir', { root, benchDir: undefined })).toThrow(/MK_BENCH_DIR/)
    expect(parseServedDatasetSpec('locomo', { root, benchDir: '/srv/bench' })).toEqual({ kind: 'locomo', path: '/srv/bench/locomo/locomo-dev.json' })
    expect(parseServedDatasetSpec('team', { root, benchDir: undefined }).path).toMatch(/bench[/\\]recall[/\\]team-dev\.json$/)
  })
})
