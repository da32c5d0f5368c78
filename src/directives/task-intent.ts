import { words } from '../words.js'

/**
 * Words that end the phrase a task's verb acts on: what follows says which subject the work is for
 * ("Write tests | for the stdio client timeout"), not what kind of work it is.
 */
const phraseEnd = new Set(
  'for that which who whose where when whenever while if unless because so in into inside of on onto to from by at about as after before with without within via through across between under over than and or but then'.split(
    ' ',
  ),
)

/**
 * The noun a task's verb acts on, the last word of the phrase after its first word: "tests" of
 * "Write tests for the order in which guardrails run", "test" of "Write an integration test in
 * core", "option" of "Add a run option that limits ...". It names the kind of thing the task
 * makes or changes; the rest of the task names the subject it is for.
 */
export function taskHeadNoun(task: string): string | undefined {
  const firstSentence = task.split(/[.:;!?\n](?:\s|$)/, 1)[0] ?? ''
  const phrase: string[] = []
  for (const word of words(firstSentence).slice(1)) {
    if (phraseEnd.has(word)) break
    phrase.push(word)
  }
  return phrase.at(-1)
}
