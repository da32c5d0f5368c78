import { mkdtemp, mkdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { connectMk, timed } from './mcp-client.js'
import { median, round } from './measure.js'

async function knowledgeBase(count: number): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'mk-bench-mcp-'))
  await mkdir(join(root, 'knowledge', 'adr'), { recursive: true })
  for (let index = 1; index <= count; index++) {
    const text = `---\ntitle: Decision number ${index}\ntype: adr\nstatus: accepted\ntags: [bench]\n---\n# Decision number ${index}\n\n${'We decided something. '.repeat(20)}\n`
    await writeFile(join(root, 'knowledge', 'adr', `adr-${String(index).padStart(4, '0')}.md`), text)
  }
  return root
}

/** `mk mcp` as an agent feels it: starting the server and listing tools, then calls inside the long-lived process. */
export async function benchMcp(): Promise<Record<string, unknown>> {
  const root = await knowledgeBase(50)
  const startups: number[] = []
  for (let run = 0; run < 5; run++) {
    let client: Client | undefined
    startups.push(
      await timed(async () => {
        client = await connectMk(root)
        await client.listTools()
      }),
    )
    await client?.close()
  }
  const client = await connectMk(root)
  await client.callTool({ name: 'knowledge_list', arguments: {} })
  const calls: number[] = []
  for (let run = 0; run < 30; run++) calls.push(await timed(() => client.callTool({ name: 'knowledge_list', arguments: { status: 'accepted' } })))
  await client.close()
  return {
    start_and_list_tools: { median_ms: round(median(startups)), runs: startups.length },
    knowledge_list_50_in_server: { median_ms: round(median(calls)), runs: calls.length },
  }
}
