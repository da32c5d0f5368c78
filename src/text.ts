/** "1 file", "2 files". */
export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`
}

/** Single-quote a value for a POSIX shell. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`
}
