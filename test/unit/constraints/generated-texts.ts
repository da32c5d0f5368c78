/** Texts and patterns that probe the literal prefilter against re2js. */

/** Deterministic generator, so a failure reproduces. */
export function random(seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648
    return state / 2147483648
  }
}

// Characters the patterns use, their other cases, and the non-ASCII characters RE2 folds onto ASCII (Kelvin sign, long s).
const alphabet = [...'abcdefgkosxyzABKSOXYZ0123 .(){}|\n\t=_-"\'', '\u212a', '\u017f', '\u0130', '\u0131', 'é', 'É', '😀']
const fragments = [
  'TODO',
  'FIXME',
  'todo',
  'Fixme',
  'password',
  'PASSWORD',
  'pa\u017f\u017fword',
  'pa\u017f\u017fword="',
  'ta\u017fk',
  'TA\u212a',
  'mysql',
  'mysql2',
  'var x',
  'console.log(',
  'a\u212ab',
  'AKB',
  'foo',
  'bar',
  'abc',
  'ABC',
  '😀😀',
]

export function generate(next: () => number): string {
  let text = ''
  const pieces = Math.floor(next() * 8)
  for (let piece = 0; piece < pieces; piece++) {
    text += next() < 0.5 ? (fragments[Math.floor(next() * fragments.length)] as string) : (alphabet[Math.floor(next() * alphabet.length)] as string)
  }
  return text
}

export const patterns = [
  'TODO|FIXME',
  '(?i)todo|fixme',
  '(?i)password\\s*=\\s*["\']',
  '(?i)a(?-i)K(?i)b',
  '(?i:akb)',
  '(?i)task',
  'mysql2?',
  '^(mysql|mysql2|mariadb)$',
  '\\bvar\\s+\\w+',
  'console\\.log\\(',
  '[A-Z0-9]{32,}',
  '[A-Z0-9]{3,}',
  '\\d{2}x?',
  '[a-c_\\.]{2}[^x]',
  '([A-Z]{2})+',
  '[]a-]{2,}',
  '(?i)[a-c]{2}',
  '\\w{3}|zz',
  'a[bc]d|x?yz',
  '(foo|bar)+baz?',
  '(ab){2,}',
  'a{0,3}bc',
  'a*b+c?',
  '(?:abc|abd)(?P<n>x|y)',
  '[]a]bc[^]x]',
  '[[:alpha:]]+ok',
  '\\pLab\\p{Greek}cd',
  '\\x41\\x{42}C',
  '\\Qa.b\\E',
  '😀+x',
  '(?s)a.b',
  '(a|)bc',
  'o{2}',
  '',
]
