/** One import statement a language reader found in a file. */
export interface ImportSite {
  /** The module as written: `lodash/fp`, `./util.js`, `os.path`, `.models`. */
  specifier: string
  /** Offset of the statement's keyword (`import`, `export`, `require`, `from`). */
  offset: number
}
