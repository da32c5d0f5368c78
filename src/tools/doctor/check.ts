import { z } from 'zod'
import { defineTool } from '../define.js'

const probeTimeoutMs = 5_000

const checkSchema = z.strictObject({
  name: z.string().describe('What was checked'),
  status: z.enum(['ok', 'warn', 'fail']),
  message: z.string(),
  fix: z.string().optional().describe('The command or edit that fixes it'),
})

export const doctorCheck = defineTool({
  name: 'doctor_check',
  title: 'Check the mk setup',
  description:
    'Diagnose this workspace: the config, each knowledge source (folder exists; git clone present, undamaged, without local edits, reachable and on its ref), knowledge files that fail to parse, the search index and embedding model, and the pre-commit hook. Every problem comes with the command that fixes it. Read-only; contacts each git remote once unless offline.',
  tier: 'read_only',
  idempotent: true,
  input: z.strictObject({
    offline: z.boolean().default(false).describe('Do not contact git remotes'),
  }),
  output: z.strictObject({
    healthy: z.boolean().describe('False when any check failed (warnings do not count)'),
    checks: z.array(checkSchema),
    summary: z.strictObject({ ok: z.number().int(), warn: z.number().int(), fail: z.number().int() }),
  }),
  examples: [
    {
      title: 'A company source whose token is missing',
      input: {},
      output: {
        healthy: false,
        checks: [
          { name: 'config', status: 'ok', message: '.mkrc is valid' },
          { name: 'source company: token', status: 'warn', message: '$ACME_TOKEN is not set', fix: 'export ACME_TOKEN=<a token with read access>' },
          {
            name: 'source company: reachable',
            status: 'fail',
            message: 'source "company": https://git.example.com/acme/knowledge.git asked for credentials (HTTP 401)',
            fix: 'export ACME_TOKEN=<a token with read access to https://git.example.com/acme/knowledge.git>',
          },
          { name: 'pre-commit hook', status: 'warn', message: 'no pre-commit hook runs mk knowledge check', fix: 'mk hook install' },
        ],
        summary: { ok: 1, warn: 2, fail: 1 },
      },
    },
  ],
  async run(input, ctx) {
    const { runDoctor } = await import('../../doctor/doctor.js')
    const checks = await runDoctor(ctx.workspace, {
      probe: !input.offline,
      env: ctx.env,
      timeoutMs: probeTimeoutMs,
      warn: (message) => ctx.warn(message),
      store: ctx.store,
    })
    const count = (status: string): number => checks.filter((check) => check.status === status).length
    const summary = { ok: count('ok'), warn: count('warn'), fail: count('fail') }
    return { output: { healthy: summary.fail === 0, checks, summary }, ...(summary.fail > 0 ? { exitCode: 1 as const } : {}) }
  },
  render({ checks, summary }, style) {
    const mark = { ok: style.green('✓'), warn: style.yellow('!'), fail: style.red('✗') }
    const lines = checks.map((check) => {
      const head = `${mark[check.status]} ${style.bold(check.name)}: ${check.message}`
      return check.fix === undefined ? head : `${head}\n    ${style.dim('fix:')} ${style.cyan(check.fix)}`
    })
    return [...lines, style.dim(`${summary.ok} ok, ${summary.warn} warnings, ${summary.fail} failed`)].join('\n')
  },
})
