import { mkdtemp, mkdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { timeMk } from './measure.js'

async function workspaceWithItems(count: number): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'mk-bench-list-'))
  await mkdir(join(root, 'knowledge', 'adr'), { recursive: true })
  for (let index = 1; index <= count; index++) {
    const number = String(index).padStart(4, '0')
    const text = [
      '---',
      `title: Decision number ${index}`,
      'type: adr',
      'status: accepted',
      'tags: [bench]',
      'constraints:',
      '  - operator: must_not_match',
      '    target: code',
      `    pattern: "forbidden_${index}\\\\("`,
      '---',
      `# Decision number ${index}`,
      '',
      '## Context',
      '',
      'Some context that explains the decision in a paragraph or two. '.repeat(8),
      '',
      '## Decision',
      '',
      'We decided something. '.repeat(10),
      '',
    ].join('\n')
    await writeFile(join(root, 'knowledge', 'adr', `adr-${number}-decision-${index}.md`), text)
  }
  return root
}

/** Whole-process times of the commands a person runs most. */
export async function benchStartup(): Promise<Record<string, unknown>> {
  const root = await workspaceWithItems(50)
  return {
    help: timeMk(['--help'], { cwd: root, budgetMs: 300 }),
    knowledge_list_50: timeMk(['knowledge', 'list'], { cwd: root, budgetMs: 300 }),
  }
}
