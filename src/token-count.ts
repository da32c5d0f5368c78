import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { packageRoot } from './package-root.js'
import { importPackage } from './import-package.js'

/** Counts tokens of a text. */
export type TokenCounter = (text: string) => number

/** The o200k encoding of gpt-tokenizer, alone, as the build writes it beside the bundle (scripts/bundle.ts). */
export const tokenizerFile = 'o200k-base.mjs'

/**
 * Tokens as OpenAI's o200k encoding counts them (GPT-4o and later models): the one count every
 * token budget in mk uses. Loaded on first use and never bundled, because its tables take about
 * 130 ms to read. An installed mk has only the built file; a clone before its first build reads
 * the gpt-tokenizer package, a development dependency.
 */
export async function loadTokenCounter(): Promise<TokenCounter> {
  const built = join(packageRoot(), 'dist', 'bundle', tokenizerFile)
  const specifier = existsSync(built) ? pathToFileURL(built).href : 'gpt-tokenizer/encoding/o200k_base'
  const { countTokens } = await importPackage<typeof import('gpt-tokenizer/encoding/o200k_base')>(specifier)
  return (text) => countTokens(text)
}
