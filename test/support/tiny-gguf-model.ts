/**
 * Writes a tiny llama-architecture GGUF v3 model (~0.5 MB) for the local provider's tests, which
 * also leave one beside node-llama-cpp for bench/local-model.mjs (no model is downloaded
 * anywhere): embedding 64, 2 blocks, 4 heads, feed-forward 128, context 512, a vocabulary of byte
 * tokens, printable ASCII and whole keys of the Sentient message.
 *
 * Weights: every transformer weight is zero, so the hidden state is the (normalized) embedding of
 * the last token; every embedding is the same unit vector, so the output matrix alone sets one
 * fixed preference over tokens: a closing quote first, then `s`, then closing brackets, then the rest
 * alike, whitespace last. Under a JSON grammar greedy decoding is deterministic: empty strings, enums starting with
 * `s` where they can, and no runaway whitespace.
 */
import { writeFileSync } from 'node:fs';
import { SENTIENT_MESSAGE_SCHEMA } from '../../src/message/sentient-message.js';

const EMBEDDING = 64;
const BLOCKS = 2;
const HEADS = 4;
const FEED_FORWARD = 128;
const CONTEXT = 512;
const ALIGNMENT = 32;

const enum GgufType {
  Uint32 = 4,
  Int32 = 5,
  Float32 = 6,
  String = 8,
  Array = 9,
}

/** Every property name in a JSON Schema, depth first. */
function propertyNames(schema: unknown, into = new Set<string>()): Set<string> {
  if (typeof schema !== 'object' || schema === null) return into;
  const properties = (schema as { properties?: Record<string, unknown> }).properties;
  if (properties && typeof properties === 'object') for (const key of Object.keys(properties)) into.add(key);
  for (const value of Object.values(schema)) propertyNames(value, into);
  return into;
}

/**
 * Whole-key tokens (`"message_id":` and `,"message_id":`) for the Sentient message's keys, so an
 * answer takes a few dozen tokens instead of one per character. They can never stand inside a
 * string (the quote would close it), so preferring them only shortens keys.
 */
function keyTokens(): string[] {
  const keys = [...propertyNames(SENTIENT_MESSAGE_SCHEMA)];
  return keys.flatMap((key) => [`"${key}":`, `,"${key}":`]);
}

/** Token texts and types (1 normal, 2 unknown, 3 control, 6 byte). */
export function tinyVocabulary(): Array<{ text: string; type: number }> {
  const tokens = [
    { text: '<unk>', type: 2 },
    { text: '<s>', type: 3 },
    { text: '</s>', type: 3 },
  ];
  for (let byte = 0; byte < 256; byte++)
    tokens.push({ text: `<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`, type: 6 });
  tokens.push({ text: '\u2581', type: 1 });
  for (let code = 0x21; code <= 0x7e; code++) tokens.push({ text: String.fromCharCode(code), type: 1 });
  for (const word of ['null', 'false', ...keyTokens()]) tokens.push({ text: word, type: 1 });
  return tokens;
}

class Writer {
  private readonly parts: Buffer[] = [];
  length = 0;
  push(buffer: Buffer): void {
    this.parts.push(buffer);
    this.length += buffer.length;
  }
  u32(value: number): void {
    const buffer = Buffer.alloc(4);
    buffer.writeUInt32LE(value);
    this.push(buffer);
  }
  i32(value: number): void {
    const buffer = Buffer.alloc(4);
    buffer.writeInt32LE(value);
    this.push(buffer);
  }
  u64(value: number): void {
    const buffer = Buffer.alloc(8);
    buffer.writeBigUInt64LE(BigInt(value));
    this.push(buffer);
  }
  f32(value: number): void {
    const buffer = Buffer.alloc(4);
    buffer.writeFloatLE(value);
    this.push(buffer);
  }
  string(text: string): void {
    const bytes = Buffer.from(text, 'utf8');
    this.u64(bytes.length);
    this.push(bytes);
  }
  pad(): void {
    const rest = this.length % ALIGNMENT;
    if (rest !== 0) this.push(Buffer.alloc(ALIGNMENT - rest));
  }
  result(): Buffer {
    return Buffer.concat(this.parts);
  }
}

type Metadata = Array<[string, GgufType, unknown]>;

export interface TinyGgufOptions {
  /** Leave out metadata keys (to write an incomplete model). */
  omitKeys?: string[];
}

/** The model file as bytes. */
export function tinyGguf(options: TinyGgufOptions = {}): Buffer {
  const vocabulary = tinyVocabulary();
  const metadata: Metadata = [
    ['general.architecture', GgufType.String, 'llama'],
    ['general.name', GgufType.String, 'govflow-tiny-test-model'],
    ['llama.context_length', GgufType.Uint32, CONTEXT],
    ['llama.embedding_length', GgufType.Uint32, EMBEDDING],
    ['llama.block_count', GgufType.Uint32, BLOCKS],
    ['llama.feed_forward_length', GgufType.Uint32, FEED_FORWARD],
    ['llama.attention.head_count', GgufType.Uint32, HEADS],
    ['llama.attention.layer_norm_rms_epsilon', GgufType.Float32, 1e-5],
    ['tokenizer.ggml.model', GgufType.String, 'llama'],
    [
      'tokenizer.ggml.tokens',
      GgufType.Array,
      { itemType: GgufType.String, items: vocabulary.map((token) => token.text) },
    ],
    ['tokenizer.ggml.scores', GgufType.Array, { itemType: GgufType.Float32, items: vocabulary.map(() => 0) }],
    [
      'tokenizer.ggml.token_type',
      GgufType.Array,
      { itemType: GgufType.Int32, items: vocabulary.map((token) => token.type) },
    ],
    ['tokenizer.ggml.unknown_token_id', GgufType.Uint32, 0],
    ['tokenizer.ggml.bos_token_id', GgufType.Uint32, 1],
    ['tokenizer.ggml.eos_token_id', GgufType.Uint32, 2],
  ].filter(([key]) => !options.omitKeys?.includes(key as string)) as Metadata;

  const vocab = vocabulary.length;
  const idOf = (text: string) => vocabulary.findIndex((token) => token.text === text);
  const preference = new Float32Array(vocab);
  preference[idOf('"')] = 1;
  preference[idOf('s')] = 0.5;
  // Close arrays and objects as soon as the grammar allows: no endless lists.
  preference[idOf(']')] = 0.25;
  preference[idOf('}')] = 0.25;
  // An object rather than null where both may stand (output.content under an output_schema).
  preference[idOf('{')] = 0.95;
  // Whole words where the grammar allows them; `null` and `false` below the closing quote, so
  // strings still close at once.
  preference[idOf('null')] = 0.9;
  preference[idOf('false')] = 0.9;
  for (const key of keyTokens()) preference[idOf(key)] = 2;
  for (const whitespace of ['<0x09>', '<0x0A>', '<0x0D>', '<0x20>', '\u2581']) preference[idOf(whitespace)] = -1;

  const tensors: Array<{ name: string; dims: number[]; data: Float32Array }> = [];
  const tensor = (name: string, dims: number[], fill?: (data: Float32Array) => void) => {
    const data = new Float32Array(dims.reduce((product, dim) => product * dim, 1));
    fill?.(data);
    tensors.push({ name, dims, data });
  };
  // Every token's embedding: the unit vector of dimension 0.
  tensor('token_embd.weight', [EMBEDDING, vocab], (data) => {
    for (let token = 0; token < vocab; token++) data[token * EMBEDDING] = 1;
  });
  tensor('output_norm.weight', [EMBEDDING], (data) => data.fill(1));
  tensor('output.weight', [EMBEDDING, vocab], (data) => {
    for (let token = 0; token < vocab; token++) data[token * EMBEDDING] = preference[token];
  });
  for (let block = 0; block < BLOCKS; block++) {
    tensor(`blk.${block}.attn_norm.weight`, [EMBEDDING], (data) => data.fill(1));
    for (const name of ['attn_q', 'attn_k', 'attn_v', 'attn_output'])
      tensor(`blk.${block}.${name}.weight`, [EMBEDDING, EMBEDDING]);
    tensor(`blk.${block}.ffn_norm.weight`, [EMBEDDING], (data) => data.fill(1));
    tensor(`blk.${block}.ffn_gate.weight`, [EMBEDDING, FEED_FORWARD]);
    tensor(`blk.${block}.ffn_up.weight`, [EMBEDDING, FEED_FORWARD]);
    tensor(`blk.${block}.ffn_down.weight`, [FEED_FORWARD, EMBEDDING]);
  }

  const writer = new Writer();
  writer.push(Buffer.from('GGUF', 'latin1'));
  writer.u32(3);
  writer.u64(tensors.length);
  writer.u64(metadata.length);
  for (const [key, type, value] of metadata) {
    writer.string(key);
    writer.u32(type);
    writeValue(writer, type, value);
  }
  let offset = 0;
  const offsets: number[] = [];
  for (const { name, dims, data } of tensors) {
    writer.string(name);
    writer.u32(dims.length);
    for (const dim of dims) writer.u64(dim);
    writer.u32(0); // F32
    writer.u64(offset);
    offsets.push(offset);
    offset += Math.ceil(data.byteLength / ALIGNMENT) * ALIGNMENT;
  }
  writer.pad();
  for (const { data } of tensors) {
    writer.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    writer.pad();
  }
  return writer.result();
}

function writeValue(writer: Writer, type: GgufType, value: unknown): void {
  switch (type) {
    case GgufType.String:
      writer.string(value as string);
      break;
    case GgufType.Uint32:
      writer.u32(value as number);
      break;
    case GgufType.Int32:
      writer.i32(value as number);
      break;
    case GgufType.Float32:
      writer.f32(value as number);
      break;
    case GgufType.Array: {
      const { itemType, items } = value as { itemType: GgufType; items: unknown[] };
      writer.u32(itemType);
      writer.u64(items.length);
      for (const item of items) writeValue(writer, itemType, item);
      break;
    }
  }
}

export function writeTinyGguf(file: string, options: TinyGgufOptions = {}): void {
  writeFileSync(file, tinyGguf(options));
}
