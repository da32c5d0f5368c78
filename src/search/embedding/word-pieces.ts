/** A word piece of the vocabulary: its text and its score (a log probability). */
export type VocabularyEntry = readonly [piece: string, score: number]

/** The vocabulary's first entries are reserved symbols that no text is split into. */
const reservedSymbols = 6
const separator = '\u2581'

interface PieceNode {
  children: Map<string, PieceNode>
  /** The vocabulary index of the piece ending here, or -1 where no piece ends. */
  index: number
  score: number
  /** The piece's length in code points. */
  symbols: number
}

const newNode = (symbols: number): PieceNode => ({ children: new Map(), index: -1, score: 0, symbols })

/**
 * The word-piece tokenizer of Universal Sentence Encoder Lite, with the results of
 * @energetic-ai/embeddings' Tokenizer (the tfjs-models one) to the last quirk — ties go to the
 * later piece, an unreached position scores as unset, the walk back steps by a piece's UTF-16
 * length, runs of unknown pieces become one — so the model sees the same ids
 * (test/unit/search/embedding/word-pieces.test.ts). Faster: its trie keeps no copy of each
 * prefix (building the package's took 60 ms of every model load) and a search walks the text
 * in place where the package's copies the rest of the text at every position.
 */
export class WordPieces {
  private readonly root = newNode(0)
  private readonly pieceLengths: Int32Array

  constructor(vocabulary: readonly VocabularyEntry[]) {
    this.pieceLengths = Int32Array.from(vocabulary, ([piece]) => piece.length)
    for (let index = reservedSymbols; index < vocabulary.length; index++) {
      const [piece, score] = vocabulary[index] as VocabularyEntry
      let node = this.root
      for (const symbol of piece) {
        let child = node.children.get(symbol)
        if (child === undefined) {
          child = newNode(node.symbols + 1)
          node.children.set(symbol, child)
        }
        node = child
      }
      if (node === this.root) continue
      node.index = index
      node.score = score
    }
  }

  /** The vocabulary ids of a text's word pieces, in order. */
  encode(text: string): number[] {
    const normalized = text.normalize('NFKC')
    const symbols = normalized.length > 0 ? [...(separator + normalized.replaceAll(' ', separator))] : []
    const count = symbols.length
    const best = new Float64Array(count + 1)
    const words = new Int32Array(count + 1)
    // The pieces ending at each position, by the position they start at: ascending, as the package visits them.
    const ending: { start: number; node: PieceNode | undefined }[][] = Array.from({ length: count + 1 }, () => [])
    for (let start = 0; start < count; start++) {
      let node = this.root.children.get(symbols[start] as string)
      let found = false
      for (let at = start; at < count && node !== undefined; at++) {
        if (node.index >= 0) {
          ending[start + node.symbols]?.push({ start, node })
          found = true
        }
        node = node.children.get(symbols[at + 1] as string)
      }
      // A symbol that starts no piece is one unknown piece (id 0, score 0).
      if (!found) ending[start + 1]?.push({ start, node: undefined })
    }
    for (let end = 0; end <= count; end++) {
      for (const { start, node } of ending[end] ?? []) {
        const score = (node?.score ?? 0) + (best[start] ?? 0)
        if (best[end] === 0 || score >= (best[end] ?? 0)) {
          best[end] = score
          words[end] = node?.index ?? 0
        }
      }
    }
    const ids: number[] = []
    for (let at = count; at > 0; at -= this.pieceLengths[words[at] ?? 0] ?? 1) ids.push(words[at] ?? 0)
    const merged: number[] = []
    let previousUnknown = false
    for (const id of ids) {
      if (!(previousUnknown && id === 0)) merged.push(id)
      previousUnknown = id === 0
    }
    return merged.reverse()
  }
}
