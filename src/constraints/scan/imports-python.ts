import type { ImportSite } from './import-site.js'

/**
 * Modules of Python `import a.b, c as d` and `from .x import y` statements.
 * Strings (docstrings included) and comments are skipped; `from` counts only
 * where a statement starts, so `yield from x` and `raise E from e` do not.
 */

const enum State {
  Idle,
  /** After `import`: reading `a.b` names separated by commas. */
  ImportNames,
  /** After `as`: the alias, which is not a module. */
  ImportAlias,
  /** After `from`: reading the dotted (maybe relative) module name until `import`. */
  FromModule,
}

function isWordChar(char: number): boolean {
  return (char >= 97 && char <= 122) || (char >= 65 && char <= 90) || (char >= 48 && char <= 57) || char === 95 || char > 127
}

export function findPythonImports(text: string): ImportSite[] {
  // Every import statement contains the word `import`: nothing after the last one needs lexing.
  const lastImport = text.lastIndexOf('import')
  if (lastImport === -1) return []
  const sites: ImportSite[] = []
  const length = text.length
  let state = State.Idle
  let statementStart = true
  let depth = 0
  let name = ''
  let statementOffset = 0
  const finishName = (): void => {
    if (name !== '') sites.push({ specifier: name, offset: statementOffset })
    name = ''
  }
  const endStatement = (): void => {
    if (state === State.ImportNames) finishName()
    state = State.Idle
    name = ''
    statementStart = true
  }

  let index = 0
  while (index < length && !(index > lastImport && state === State.Idle)) {
    const char = text.charCodeAt(index)
    if (char === 10) {
      index++
      if (depth === 0) endStatement()
    } else if (char === 32 || char === 9 || char === 13 || char === 12) {
      index++
    } else if (char === 92 && (text.charCodeAt(index + 1) === 10 || text.charCodeAt(index + 1) === 13)) {
      // Backslash continuation: the logical line goes on.
      index += text.charCodeAt(index + 1) === 13 ? 3 : 2
    } else if (char === 35) {
      const end = text.indexOf('\n', index)
      index = end === -1 ? length : end
    } else if (char === 39 || char === 34) {
      index = skipString(text, index, char)
      statementStart = false
      state = State.Idle
    } else if (isWordChar(char)) {
      const start = index
      while (index < length && isWordChar(text.charCodeAt(index))) index++
      const word = text.slice(start, index)
      if (state === State.ImportNames) {
        if (word === 'as') {
          finishName()
          state = State.ImportAlias
        } else {
          name += word
        }
      } else if (state === State.FromModule) {
        if (word === 'import') {
          finishName()
          state = State.Idle
        } else {
          name += word
        }
      } else if (statementStart && word === 'import') {
        state = State.ImportNames
        statementOffset = start
      } else if (statementStart && word === 'from') {
        state = State.FromModule
        statementOffset = start
      } else if (state === State.ImportAlias) {
        state = State.ImportNames
      }
      statementStart = false
    } else {
      index++
      if (char === 40 || char === 91 || char === 123) depth++
      else if ((char === 41 || char === 93 || char === 125) && depth > 0) depth--
      if (char === 46 && (state === State.ImportNames || state === State.FromModule)) {
        name += '.'
      } else if (char === 44 && (state === State.ImportNames || state === State.ImportAlias)) {
        if (state === State.ImportNames) finishName()
        state = State.ImportNames
      } else if (char === 59 || (char === 58 && depth === 0)) {
        endStatement()
        continue
      } else if (state === State.ImportNames || state === State.ImportAlias) {
        finishName()
        state = State.Idle
      }
      statementStart = false
    }
  }
  endStatement()
  return sites
}

/** Skip a Python string literal (single or triple quoted) starting at its opening quote. */
function skipString(text: string, start: number, quote: number): number {
  const triple = text.charCodeAt(start + 1) === quote && text.charCodeAt(start + 2) === quote
  if (triple) {
    const closing = String.fromCharCode(quote).repeat(3)
    for (let position = start + 3; position < text.length; position++) {
      if (text.charCodeAt(position) === 92) position++
      else if (text.startsWith(closing, position)) return position + 3
    }
    return text.length
  }
  for (let position = start + 1; position < text.length; position++) {
    const char = text.charCodeAt(position)
    if (char === 92) position++
    else if (char === quote || char === 10) return position + 1
  }
  return text.length
}
