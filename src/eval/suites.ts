import type { IndexDocument } from '../search/types.js'
import type { BeirDataset } from './beir.js'
import { locomoCategories, type LocomoConversation } from './locomo.js'
import { ndcgAtK, recallAtK, reciprocalRankAtK } from './metrics.js'
import { isUnanswerable, teamQuestionKinds, unanswerableKinds, type TeamDataset } from './team.js'

export interface SuiteQuery {
  text: string
  category?: number
  /** True for a question nothing in the documents answers: the search should abstain, and it has no ranking metrics. */
  unanswerable?: boolean
  /** The metrics of one ranked list of document ids. */
  score(ranked: readonly string[]): Record<string, number>
}

/** Documents searched together (one index) and the queries asked of them. */
export interface SuiteGroup {
  name: string
  documents: IndexDocument[]
  queries: SuiteQuery[]
}

export interface Suite {
  /** How many results each query retrieves. */
  depth: number
  /** Names of the query categories, for the per-category report. */
  categoryNames?: Readonly<Record<number, string>>
  groups: SuiteGroup[]
}

function document(id: string, content: string, title?: string): IndexDocument {
  return { id, kind: 'memory', layer: 'project', ...(title === undefined || title === '' ? {} : { title }), content, tags: [], updatedAt: 0 }
}

/** BEIR: one index over the corpus (title and text); nDCG@10 and Recall@100 per test query. */
export function beirSuite(dataset: BeirDataset): Suite {
  return {
    depth: 100,
    groups: [
      {
        name: 'corpus',
        documents: dataset.documents.map((doc) => document(doc.id, doc.text, doc.title)),
        queries: dataset.queries.map((query) => {
          const relevant = new Set([...query.grades].filter(([, grade]) => grade > 0).map(([id]) => id))
          return {
            text: query.text,
            score: (ranked) => ({ ndcgAt10: ndcgAtK(ranked, query.grades, 10), recallAt100: recallAtK(ranked, relevant, 100) }),
          }
        }),
      },
    ],
  }
}

/** LoCoMo: one index per conversation, one memory per dialog turn; Recall@5/10/25 per question. */
export function locomoSuite(conversations: readonly LocomoConversation[]): Suite {
  return {
    depth: 25,
    categoryNames: locomoCategories,
    groups: conversations.map((conversation) => ({
      name: conversation.id,
      documents: conversation.turns.map((turn) => document(turn.id, turn.text)),
      queries: conversation.questions.map((question) => {
        const evidence = new Set(question.evidence)
        return {
          text: question.question,
          category: question.category,
          score: (ranked) => ({
            recallAt5: recallAtK(ranked, evidence, 5),
            recallAt10: recallAtK(ranked, evidence, 10),
            recallAt25: recallAtK(ranked, evidence, 25),
          }),
        }
      }),
    })),
  }
}

/** Team memories: one index; P@1, R@3, R@10 and MRR@10 per answerable question, reported per kind of question. */
export function teamSuite(dataset: TeamDataset): Suite {
  const kinds = [...teamQuestionKinds, ...unanswerableKinds]
  return {
    depth: 10,
    categoryNames: Object.fromEntries(kinds.map((kind, index) => [index + 1, kind])),
    groups: [
      {
        name: 'team',
        documents: dataset.memories.map((memory) => document(memory.id, memory.content)),
        queries: dataset.questions.map((question) => {
          const answers = new Set(question.answers)
          return {
            text: question.text,
            category: kinds.indexOf(question.kind) + 1,
            ...(isUnanswerable(question.kind) ? { unanswerable: true } : {}),
            score: (ranked) => ({
              precisionAt1: ranked[0] !== undefined && answers.has(ranked[0]) ? 1 : 0,
              recallAt3: recallAtK(ranked, answers, 3),
              recallAt10: recallAtK(ranked, answers, 10),
              mrrAt10: reciprocalRankAtK(ranked, answers, 10),
            }),
          }
        }),
      },
    ],
  }
}

/** The first `limit` queries over all groups; groups left without queries are dropped. */
export function limitQueries(suite: Suite, limit: number | undefined): Suite {
  if (limit === undefined) return suite
  let left = limit
  const groups: SuiteGroup[] = []
  for (const group of suite.groups) {
    if (left <= 0) break
    const queries = group.queries.slice(0, left)
    left -= queries.length
    if (queries.length > 0) groups.push({ ...group, queries })
  }
  return { ...suite, groups }
}
