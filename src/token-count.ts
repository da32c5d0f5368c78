import { importPackage } from './import-package.js'

/** Counts tokens of a text. */
export type TokenCounter = (text: string) => number

/**
 * Tokens as OpenAI's o200k encoding counts them (GPT-4o and later models): the one count every
 * token budget in mk uses. Loaded on first use and never bundled, because its tables take about
 * 130 ms to read.
 */
export async function loadTokenCounter(): Promise<TokenCounter> {
  const { countTokens } = await importPackage<typeof import('gpt-tokenizer/encoding/o200k_base')>('gpt-tokenizer/encoding/o200k_base')
  return (text) => countTokens(text)
}
