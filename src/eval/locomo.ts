import { datasetError, readDataFile } from './read-data.js'

export const locomoCategories: Readonly<Record<number, string>> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
  5: 'adversarial',
}

export interface LocomoTurn {
  /** The dialog id, e.g. `D1:3` (session 1, turn 3). */
  id: string
  text: string
}

export interface LocomoQuestion {
  question: string
  category: number
  /** Normalised dialog ids of the evidence that exist in the conversation. */
  evidence: string[]
}

export interface LocomoConversation {
  id: string
  turns: LocomoTurn[]
  questions: LocomoQuestion[]
}

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)

/** The LoCoMo RAG "dialog" unit: `{speaker} said, "{text}"`, plus ` and shared {caption}` for a shared image. */
export function turnText(turn: { speaker: string; text: string; blip_caption?: string | undefined }): string {
  const caption = turn.blip_caption === undefined || turn.blip_caption === '' ? '' : ` and shared ${turn.blip_caption}`
  return `${turn.speaker} said, "${turn.text}"${caption}`
}

/**
 * Evidence strings as the protocol reads them: split on `;` and spaces, leading
 * zeros dropped from the turn number, and ids the conversation lacks dropped.
 */
export function normaliseEvidence(evidence: readonly string[], existing: ReadonlySet<string>): string[] {
  const ids = evidence
    .flatMap((entry) => entry.split(/[;\s]+/))
    .map((entry) => entry.trim().replace(/^(D\d+):0*(\d)/, '$1:$2'))
    .filter((id) => existing.has(id))
  return [...new Set(ids)]
}

function readTurns(conversation: Json, file: string, sampleId: string): LocomoTurn[] {
  const sessions = Object.keys(conversation)
    .map((key) => /^session_(\d+)$/.exec(key))
    .filter((match): match is RegExpExecArray => match !== null && Array.isArray(conversation[match[0]]))
    .sort((a, b) => Number(a[1]) - Number(b[1]))
  return sessions.flatMap((match) =>
    (conversation[match[0]] as unknown[]).map((turn) => {
      if (!isObject(turn) || typeof turn.dia_id !== 'string' || typeof turn.speaker !== 'string' || typeof turn.text !== 'string') {
        throw datasetError(`${sampleId} ${match[0]}: every turn needs string fields dia_id, speaker and text`, file)
      }
      const caption = typeof turn.blip_caption === 'string' ? turn.blip_caption : undefined
      return { id: turn.dia_id, text: turnText({ speaker: turn.speaker, text: turn.text, blip_caption: caption }) }
    }),
  )
}

/** A LoCoMo file (the format of the official locomo10.json): an array of conversations with their questions. */
export async function loadLocomo(file: string): Promise<LocomoConversation[]> {
  let data: unknown
  try {
    data = JSON.parse(await readDataFile(file, 'LoCoMo file'))
  } catch (error) {
    if (error instanceof SyntaxError) throw datasetError(`not valid JSON (${error.message})`, file)
    throw error
  }
  if (!Array.isArray(data)) throw datasetError('expected a JSON array of conversations', file)
  return data.map((sample, index) => {
    const sampleId = isObject(sample) && typeof sample.sample_id === 'string' ? sample.sample_id : `conversation ${index + 1}`
    if (!isObject(sample) || !isObject(sample.conversation) || !Array.isArray(sample.qa)) {
      throw datasetError(`${sampleId}: expected an object with "conversation" and "qa"`, file)
    }
    const turns = readTurns(sample.conversation, file, sampleId)
    const existing = new Set(turns.map((turn) => turn.id))
    const questions = sample.qa.map((qa, qaIndex) => {
      if (!isObject(qa) || typeof qa.question !== 'string' || typeof qa.category !== 'number') {
        throw datasetError(`${sampleId} qa[${qaIndex}]: needs a string "question" and a numeric "category"`, file)
      }
      const evidence = Array.isArray(qa.evidence) ? qa.evidence.filter((entry): entry is string => typeof entry === 'string') : []
      return { question: qa.question, category: qa.category, evidence: normaliseEvidence(evidence, existing) }
    })
    return { id: sampleId, turns, questions }
  })
}
