/**
 * Retrieval quality of well-known small sentence-transformers, as their authors published it:
 * the MTEB retrieval average (nDCG@10 over 15 BEIR sets) from each model card or paper, and
 * SciFact nDCG@10 where it was reported. Ids are the transformers.js exports on the hub.
 */
export interface KnownModel {
  id: string
  dimensions: number
  mtebRetrieval: number
  scifact?: number
  note: string
}

export const knownModels: readonly KnownModel[] = [
  { id: 'Xenova/all-MiniLM-L6-v2', dimensions: 384, mtebRetrieval: 41.95, scifact: 0.645, note: 'small and fast, English' },
  { id: 'Xenova/bge-small-en-v1.5', dimensions: 384, mtebRetrieval: 51.68, scifact: 0.713, note: 'strong for its size, English' },
  { id: 'Xenova/gte-small', dimensions: 384, mtebRetrieval: 49.46, note: 'English' },
  { id: 'Xenova/e5-small-v2', dimensions: 384, mtebRetrieval: 49.04, note: 'needs queryPrefix "query: " and documentPrefix "passage: "' },
]
