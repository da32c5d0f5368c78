import { posix } from 'node:path'

/**
 * The files a CLAUDE.md imports with `@path` (Claude Code reads them into the same context): a
 * `@` at the start of a word, followed by a relative path, outside code spans and code blocks.
 * `@AGENTS.md`, `@../AGENTS.md`, `@docs/git.md`; not `user@example.com`, not `@scope/package`
 * (no file extension), not `~/` or absolute paths (outside the workspace by definition).
 */
export function claudeImports(text: string): string[] {
  const prose = text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '')
  const found: string[] = []
  for (const match of prose.matchAll(/(?<![\w@/])@((?:\.{1,2}\/)*[\w.-]+(?:\/[\w.-]+)*\.[A-Za-z]{1,8})(?![\w/])/g)) {
    const path = (match[1] ?? '').replace(/\.+$/, '')
    if (path !== '' && !found.includes(path)) found.push(path)
  }
  return found
}

/** An import resolved against the folder of the file that writes it, as a workspace-relative posix path; undefined when it leaves the workspace. */
export function resolveImport(importer: string, target: string): string | undefined {
  const joined = posix.normalize(posix.join(posix.dirname(importer), target))
  return joined.startsWith('../') || joined === '..' || posix.isAbsolute(joined) ? undefined : joined
}
