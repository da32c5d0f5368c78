import { readFileSync } from 'node:fs'
import { join } from 'node:path'

export interface GitIdentity {
  name: string
  email: string
}

/** `user.name` and `user.email` of one git config file's `[user]` section, where it sets them. */
function userOf(file: string): Partial<GitIdentity> {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    return {}
  }
  const found: Partial<GitIdentity> = {}
  let inUser = false
  for (const line of text.split('\n')) {
    const section = /^\s*\[([^\]\s]+)/.exec(line)
    if (section !== null) inUser = section[1]?.toLowerCase() === 'user'
    const entry = inUser ? /^\s*(name|email)\s*=\s*"?(.*?)"?\s*$/i.exec(line) : null
    if (entry !== null) found[entry[1]?.toLowerCase() as 'name' | 'email'] = entry[2]
  }
  return found
}

/**
 * Who a commit of mk's should name, the way git decides it: GIT_AUTHOR_NAME/EMAIL, else the
 * global git config (`~/.gitconfig`, then the XDG one). Undefined when neither names a person.
 */
export function gitIdentity(env: NodeJS.ProcessEnv): GitIdentity | undefined {
  const home = env.HOME
  const xdg = env.XDG_CONFIG_HOME ?? (home === undefined ? undefined : join(home, '.config'))
  const files = [...(xdg === undefined ? [] : [join(xdg, 'git', 'config')]), ...(home === undefined ? [] : [join(home, '.gitconfig')])]
  // Later files win, as in git: ~/.gitconfig over the XDG file.
  const fromFiles = files.reduce<Partial<GitIdentity>>((merged, file) => ({ ...merged, ...userOf(file) }), {})
  const name = env.GIT_AUTHOR_NAME || fromFiles.name
  const email = env.GIT_AUTHOR_EMAIL || fromFiles.email
  return name && email ? { name, email } : undefined
}
