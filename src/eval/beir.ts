import { join } from 'node:path'
import { datasetError, readDataFile, readJsonLines, stringField } from './read-data.js'

export interface BeirDocument {
  id: string
  title: string
  text: string
}

export interface BeirQuery {
  id: string
  text: string
  /** Judged documents and their relevance grade (> 0 is relevant). */
  grades: Map<string, number>
}

export interface BeirDataset {
  documents: BeirDocument[]
  /** Only the queries that have test judgments, in qrels order. */
  queries: BeirQuery[]
}

async function readQrels(file: string): Promise<Map<string, Map<string, number>>> {
  const qrels = new Map<string, Map<string, number>>()
  const lines = (await readDataFile(file, 'BEIR qrels')).split('\n')
  lines.forEach((raw, index) => {
    const line = raw.trim()
    if (line === '' || (index === 0 && /^query-id\b/i.test(line))) return
    const [queryId, documentId, score] = line.split(/\t| +/)
    const grade = Number(score)
    if (queryId === undefined || documentId === undefined || score === undefined || !Number.isFinite(grade)) {
      throw datasetError('expected "query-id<TAB>corpus-id<TAB>score"', file, index + 1)
    }
    const grades = qrels.get(queryId) ?? new Map<string, number>()
    grades.set(documentId, grade)
    qrels.set(queryId, grades)
  })
  return qrels
}

/** The files of a BEIR dataset folder, relative to it. */
export const beirFiles = { corpus: 'corpus.jsonl', queries: 'queries.jsonl', qrels: join('qrels', 'test.tsv') } as const

/** A BEIR dataset folder: corpus.jsonl, queries.jsonl, qrels/test.tsv. */
export async function loadBeir(dir: string): Promise<BeirDataset> {
  const corpusFile = join(dir, beirFiles.corpus)
  const queriesFile = join(dir, beirFiles.queries)
  const [corpus, queryRows, qrels] = await Promise.all([
    readJsonLines(corpusFile, 'BEIR corpus'),
    readJsonLines(queriesFile, 'BEIR queries'),
    readQrels(join(dir, beirFiles.qrels)),
  ])
  const documents = corpus.map(({ line, value }) => ({
    id: stringField(value, '_id', corpusFile, line),
    title: typeof value.title === 'string' ? value.title : '',
    text: stringField(value, 'text', corpusFile, line),
  }))
  const queryText = new Map(queryRows.map(({ line, value }) => [stringField(value, '_id', queriesFile, line), stringField(value, 'text', queriesFile, line)]))
  const queries: BeirQuery[] = []
  for (const [id, grades] of qrels) {
    const text = queryText.get(id)
    if (text === undefined) throw datasetError(`qrels/test.tsv judges query ${id}, which is not in queries.jsonl`, queriesFile)
    queries.push({ id, text, grades })
  }
  return { documents, queries }
}
