/** Lower-case words of a text, keeping the characters of technical names (node.js, k8s, c++, n+1). */
export function words(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}+#.'_-]*/gu) ?? []).map((word) => word.replace(/[.'_-]+$/, ''))
}

/** Plural to singular, the same way for a task and for the vocabulary: "addresses" and "address", "policies" and "policy" meet. */
export function stem(word: string): string {
  if (word.length <= 3) return word
  if (word.endsWith('sses')) return word.slice(0, -2)
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`
  if (word.endsWith('s') && !/(ss|us|is)$/.test(word)) return word.slice(0, -1)
  return word
}
