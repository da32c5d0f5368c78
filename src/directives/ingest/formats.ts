import { basename } from 'node:path'

/** The agent rule files mk reads, named by the agent that reads them. */
export const ruleFormats = ['agents-md', 'claude', 'cursor', 'copilot', 'windsurf', 'cline', 'kilocode'] as const
export type RuleFormat = (typeof ruleFormats)[number]

/** How each format is recognised by its workspace-relative posix path; first match wins. */
const recognisers: readonly { format: RuleFormat; test: (path: string) => boolean }[] = [
  { format: 'agents-md', test: (path) => basename(path) === 'AGENTS.md' },
  { format: 'claude', test: (path) => basename(path) === 'CLAUDE.md' },
  { format: 'cursor', test: (path) => /(^|\/)\.cursor\/rules\/(.+\/)?[^/]+\.mdc$/.test(path) || basename(path) === '.cursorrules' },
  {
    format: 'copilot',
    test: (path) => /(^|\/)\.github\/copilot-instructions\.md$/.test(path) || /(^|\/)\.github\/instructions\/(.+\/)?[^/]+\.instructions\.md$/.test(path),
  },
  { format: 'windsurf', test: (path) => basename(path) === '.windsurfrules' },
  { format: 'cline', test: (path) => basename(path) === '.clinerules' || /(^|\/)\.clinerules\/(.+\/)?[^/]+\.md$/.test(path) },
  { format: 'kilocode', test: (path) => /(^|\/)\.kilocode\/rules\/(.+\/)?[^/]+\.md$/.test(path) },
]

/** The format of a rule file by its workspace-relative posix path, or undefined when mk does not know it. */
export function formatOf(path: string): RuleFormat | undefined {
  return recognisers.find((recogniser) => recogniser.test(path))?.format
}

/** The file names of each format, for the message that lists what mk can read. */
export const knownRuleFiles =
  'AGENTS.md, CLAUDE.md, .cursor/rules/*.mdc, .cursorrules, .github/copilot-instructions.md, .github/instructions/*.instructions.md, .windsurfrules, .clinerules (file or folder), .kilocode/rules/*.md'
