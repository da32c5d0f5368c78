import { tmpdir } from 'node:os'
import { sep } from 'node:path'
import { packageRoot } from '../package-root.js'

/** The folders of one tenant, absolute, as the server knows them. */
export interface TenantPlaces {
  root: string
  mkHome: string
}

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Characters that continue a path name: a folder followed by one of them is another folder (`/data/ws2` is not `/data/ws`). */
const nameCharacter = '[\\w.@+~-]'

/** An absolute path not caught by a known folder: a / that does not continue a name, a URL, a glob or a placeholder. */
const otherAbsolutePath = new RegExp(`(?<![\\w./:~@+*>-])/${nameCharacter}+(?:/${nameCharacter}+)*/?`, 'g')

/**
 * Text the server sends a tenant, with its own absolute paths replaced by what the tenant can act on:
 * a path in its workspace becomes workspace-relative (the workspace itself `<workspace>`), one in its
 * MK_HOME `$MK_HOME/...`; mk's package folder, the temp folder and any other absolute path become
 * placeholders. The tenant learns nothing of the server's layout, other tenants included.
 */
export function textForTenant(text: string, places: TenantPlaces | undefined): string {
  const known: [string, (rest: string) => string][] = [
    ...(places === undefined
      ? []
      : ([
          [places.root, (rest: string) => (rest === '' ? '<workspace>' : rest.slice(1))],
          [places.mkHome, (rest: string) => `$MK_HOME${rest}`],
        ] as [string, (rest: string) => string][])),
    [packageRoot(), (rest) => `<mk>${rest}`],
    [tmpdir(), (rest) => `<temp>${rest}`],
  ]
  let result = text
  // Longest first: a folder inside another is named by the inner one.
  for (const [folder, name] of known.sort(([a], [b]) => b.length - a.length)) {
    if (folder === '' || folder === sep) continue
    const pattern = new RegExp(`${escaped(folder)}((?:${escaped(sep)}${nameCharacter}+)*${escaped(sep)}?)(?!${nameCharacter})`, 'g')
    result = result.replace(pattern, (_match, rest: string) => name(rest.replace(/\/$/, '')))
  }
  return result.replace(otherAbsolutePath, '<server path>')
}
