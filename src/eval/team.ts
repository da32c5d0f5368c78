import { datasetError, readDataFile } from './read-data.js'

/** The kinds of question a team asks of its memories, in the order reports list them. */
export const teamQuestionKinds = ['lexical', 'paraphrase', 'category', 'multi'] as const
/** Questions no memory answers: a sensible question about something the team never wrote down, and gibberish. */
export const unanswerableKinds = ['none', 'gibberish'] as const
export type TeamQuestionKind = (typeof teamQuestionKinds)[number] | (typeof unanswerableKinds)[number]

export interface TeamMemory {
  id: string
  content: string
}

export interface TeamQuestion {
  text: string
  kind: TeamQuestionKind
  /** Ids of the memories that answer it; any of them first counts as right. Empty for the unanswerable kinds. */
  answers: string[]
}

export interface TeamDataset {
  memories: TeamMemory[]
  questions: TeamQuestion[]
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const allKinds: readonly TeamQuestionKind[] = [...teamQuestionKinds, ...unanswerableKinds]
const isKind = (value: unknown): value is TeamQuestionKind => allKinds.some((kind) => kind === value)
export const isUnanswerable = (kind: TeamQuestionKind): boolean => unanswerableKinds.some((unanswerable) => unanswerable === kind)

/**
 * A team-memory retrieval set: `{memories: [{id, content}], questions: [{text, kind, answers}]}`,
 * kind one of lexical, paraphrase, category, multi (answers name memories of the file), or none
 * and gibberish (answers empty: no memory answers them, and the search should abstain).
 */
export async function loadTeam(file: string): Promise<TeamDataset> {
  let data: unknown
  try {
    data = JSON.parse(await readDataFile(file, 'the team memory set'))
  } catch (error) {
    if (error instanceof SyntaxError) throw datasetError(`not valid JSON (${error.message})`, file)
    throw error
  }
  if (!isObject(data) || !Array.isArray(data.memories) || !Array.isArray(data.questions))
    throw datasetError('expected {"memories": [...], "questions": [...]}', file)
  const memories = data.memories.map((memory, index) => {
    if (!isObject(memory) || typeof memory.id !== 'string' || typeof memory.content !== 'string')
      throw datasetError(`memories[${index}] needs a string "id" and "content"`, file)
    return { id: memory.id, content: memory.content }
  })
  const ids = new Set(memories.map((memory) => memory.id))
  const questions = data.questions.map((question, index) => {
    if (!isObject(question) || typeof question.text !== 'string' || !isKind(question.kind) || !Array.isArray(question.answers))
      throw datasetError(`questions[${index}] needs "text", "kind" (${allKinds.join(', ')}) and "answers"`, file)
    const answers = question.answers.filter((answer): answer is string => typeof answer === 'string')
    if (isUnanswerable(question.kind)) {
      if (question.answers.length > 0) throw datasetError(`questions[${index}] is of kind ${question.kind}: its "answers" must be empty`, file)
      return { text: question.text, kind: question.kind, answers }
    }
    const unknown = answers.filter((answer) => !ids.has(answer))
    if (unknown.length > 0 || answers.length === 0)
      throw datasetError(`questions[${index}] answers name no memory of the file: ${unknown.join(', ') || '(none)'}`, file)
    return { text: question.text, kind: question.kind, answers }
  })
  return { memories, questions }
}
