import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { onnx } from 'onnx-proto'

/** The word pieces of the tiny model; ids are positions. */
export const tinyVocabulary = [
  '[PAD]',
  '[UNK]',
  '[CLS]',
  '[SEP]',
  'we',
  'store',
  'everything',
  'in',
  'postgres',
  'what',
  'database',
  'do',
  'use',
  'cats',
] as const
export const tinyHiddenSize = 4
/** The tokenizer keeps this many tokens, [CLS] and [SEP] included. */
export const tinyMaxLength = 6

/** Row `id` of the embedding table: distinct, deterministic, some negative. */
export function tinyEmbedding(id: number): number[] {
  return Array.from({ length: tinyHiddenSize }, (_, column) => ((id * 7 + column * 3) % 5) - 2 + id / 10)
}

function tensorType(elemType: onnx.TensorProto.DataType, dims: (string | number)[]): onnx.ITypeProto {
  return { tensorType: { elemType, shape: { dim: dims.map((dim) => (typeof dim === 'number' ? { dimValue: dim } : { dimParam: dim })) } } }
}

/**
 * A BERT-shaped ONNX model: inputs input_ids, attention_mask, token_type_ids;
 * output last_hidden_state = one embedding-table row per token (a single Gather),
 * so the pooled sentence vector can be computed by hand.
 */
function tinyModel(): Uint8Array {
  const int64 = onnx.TensorProto.DataType.INT64
  const float = onnx.TensorProto.DataType.FLOAT
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'mk-test',
    opsetImport: [{ domain: '', version: 13 }],
    graph: {
      name: 'tiny-bert',
      node: [
        {
          opType: 'Gather',
          input: ['word_embeddings', 'input_ids'],
          output: ['last_hidden_state'],
          attribute: [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
        },
      ],
      initializer: [
        {
          name: 'word_embeddings',
          dataType: float,
          dims: [tinyVocabulary.length, tinyHiddenSize],
          floatData: tinyVocabulary.flatMap((_, id) => tinyEmbedding(id)),
        },
      ],
      input: ['input_ids', 'attention_mask', 'token_type_ids'].map((name) => ({ name, type: tensorType(int64, ['batch', 'sequence']) })),
      output: [{ name: 'last_hidden_state', type: tensorType(float, ['batch', 'sequence', tinyHiddenSize]) }],
    },
  })
  return onnx.ModelProto.encode(model).finish()
}

function specialToken(id: number, content: string): Record<string, unknown> {
  return { id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true }
}

function tinyTokenizer(): Record<string, unknown> {
  const cls = { SpecialToken: { id: '[CLS]', type_id: 0 } }
  const sep = { SpecialToken: { id: '[SEP]', type_id: 0 } }
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: ['[PAD]', '[UNK]', '[CLS]', '[SEP]'].map((content, id) => specialToken(id, content)),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [cls, { Sequence: { id: 'A', type_id: 0 } }, sep],
      pair: [cls, { Sequence: { id: 'A', type_id: 0 } }, sep, { Sequence: { id: 'B', type_id: 1 } }, { SpecialToken: { id: '[SEP]', type_id: 1 } }],
      special_tokens: { '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] }, '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] } },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(tinyVocabulary.map((word, id) => [word, id])),
    },
  }
}

/** Writes a complete transformers.js model folder (config, tokenizer, onnx/model.onnx) into `folder`. */
export async function writeTinyBert(folder: string): Promise<void> {
  await mkdir(join(folder, 'onnx'), { recursive: true })
  await writeFile(join(folder, 'onnx', 'model.onnx'), tinyModel())
  await writeFile(join(folder, 'config.json'), JSON.stringify({ model_type: 'bert', architectures: ['BertModel'], hidden_size: tinyHiddenSize }))
  await writeFile(join(folder, 'tokenizer.json'), JSON.stringify(tinyTokenizer()))
  await writeFile(
    join(folder, 'tokenizer_config.json'),
    JSON.stringify({
      tokenizer_class: 'BertTokenizer',
      model_max_length: tinyMaxLength,
      do_lower_case: true,
      cls_token: '[CLS]',
      sep_token: '[SEP]',
      pad_token: '[PAD]',
      unk_token: '[UNK]',
    }),
  )
}

/** What mean pooling plus L2 normalisation must give for these token ids. */
export function expectedVector(tokenIds: readonly number[]): number[] {
  const sum = Array.from({ length: tinyHiddenSize }, (_, column) => tokenIds.reduce((total, id) => total + (tinyEmbedding(id)[column] ?? 0), 0))
  const mean = sum.map((value) => value / tokenIds.length)
  const norm = Math.hypot(...mean)
  return mean.map((value) => value / norm)
}

export function tokenId(word: (typeof tinyVocabulary)[number]): number {
  return tinyVocabulary.indexOf(word)
}
