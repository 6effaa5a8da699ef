/**
 * Checks a GGUF file's header and metadata before llama.cpp sees it: llama.cpp aborts the whole
 * process (a native assertion) on some malformed models, e.g. one missing `token_type`.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { ConfigError } from '../errors.js';

const GGUF_MAGIC = 'GGUF';
const SUPPORTED_VERSIONS = [2, 3];
/** The header and metadata are read from the file's first bytes (vocabularies make them large). */
const MAX_HEADER_BYTES = 64 * 1024 * 1024;

/** GGUF metadata value types. */
const enum ValueType {
  Uint8 = 0,
  Int8 = 1,
  Uint16 = 2,
  Int16 = 3,
  Uint32 = 4,
  Int32 = 5,
  Float32 = 6,
  Bool = 7,
  String = 8,
  Array = 9,
  Uint64 = 10,
  Int64 = 11,
  Float64 = 12,
}

const FIXED_SIZES: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };

export interface GgufHeader {
  version: number;
  tensorCount: number;
  /** Scalar metadata by key; arrays are given as their length. */
  metadata: Map<string, string | number | boolean | { arrayLength: number }>;
  architecture: string;
}

class Reader {
  offset = 0;
  constructor(
    private readonly buffer: Buffer,
    private readonly file: string,
  ) {}

  need(bytes: number): void {
    if (this.offset + bytes > this.buffer.length) {
      throw new ConfigError(
        `not a usable GGUF model: the file ends inside its header (at byte ${this.offset}); the download or copy is probably incomplete`,
        this.file,
      );
    }
  }
  u32(): number {
    this.need(4);
    const value = this.buffer.readUInt32LE(this.offset);
    this.offset += 4;
    return value;
  }
  u64(): number {
    this.need(8);
    const value = this.buffer.readBigUInt64LE(this.offset);
    this.offset += 8;
    if (value > BigInt(Number.MAX_SAFE_INTEGER))
      throw new ConfigError(
        'not a usable GGUF model: a length in its header is impossibly large (corrupt file)',
        this.file,
      );
    return Number(value);
  }
  string(): string {
    const length = this.u64();
    this.need(length);
    const text = this.buffer.toString('utf8', this.offset, this.offset + length);
    this.offset += length;
    return text;
  }
  value(type: number): string | number | boolean | { arrayLength: number } {
    switch (type) {
      case ValueType.String:
        return this.string();
      case ValueType.Array: {
        const itemType = this.u32();
        const count = this.u64();
        if (itemType === ValueType.String) for (let index = 0; index < count; index++) this.string();
        else if (FIXED_SIZES[itemType] !== undefined) {
          this.need(count * FIXED_SIZES[itemType]);
          this.offset += count * FIXED_SIZES[itemType];
        } else
          throw new ConfigError(
            `not a usable GGUF model: unknown array item type ${itemType} in its metadata (corrupt file)`,
            this.file,
          );
        return { arrayLength: count };
      }
      case ValueType.Uint32:
        return this.u32();
      case ValueType.Float32:
        this.need(4);
        this.offset += 4;
        return this.buffer.readFloatLE(this.offset - 4);
      case ValueType.Bool:
        this.need(1);
        return this.buffer[this.offset++] !== 0;
      case ValueType.Uint64:
        return this.u64();
      default: {
        const size = FIXED_SIZES[type];
        if (size === undefined)
          throw new ConfigError(
            `not a usable GGUF model: unknown metadata value type ${type} (corrupt file)`,
            this.file,
          );
        this.need(size);
        this.offset += size;
        return 0;
      }
    }
  }
}

/** Keys llama.cpp needs for an architecture before it can load without aborting. */
function requiredKeys(architecture: string): string[] {
  const perArchitecture = [
    'context_length',
    'embedding_length',
    'block_count',
    'feed_forward_length',
    'attention.head_count',
  ];
  return [
    ...perArchitecture.map((key) => `${architecture}.${key}`),
    'tokenizer.ggml.model',
    'tokenizer.ggml.tokens',
    'tokenizer.ggml.token_type',
  ];
}

/** Reads the header of `file`; throws ConfigError naming the file and the problem. */
export function readGgufHeader(file: string): GgufHeader {
  let descriptor: number;
  try {
    descriptor = openSync(file, 'r');
  } catch (error) {
    throw new ConfigError(
      `cannot open the model file: ${error instanceof Error ? error.message : String(error)}`,
      file,
    );
  }
  let buffer: Buffer;
  try {
    const size = Math.min(fstatSync(descriptor).size, MAX_HEADER_BYTES);
    buffer = Buffer.alloc(size);
    readSync(descriptor, buffer, 0, size, 0);
  } finally {
    closeSync(descriptor);
  }
  const reader = new Reader(buffer, file);
  if (buffer.length < 4 || buffer.toString('latin1', 0, 4) !== GGUF_MAGIC) {
    throw new ConfigError(
      'not a GGUF model file (it does not start with "GGUF"); provider.model must name a .gguf file',
      file,
    );
  }
  reader.offset = 4;
  const version = reader.u32();
  if (!SUPPORTED_VERSIONS.includes(version)) {
    throw new ConfigError(
      `GGUF version ${version} is not supported (versions ${SUPPORTED_VERSIONS.join(', ')} are); convert the model with a current llama.cpp`,
      file,
    );
  }
  const tensorCount = reader.u64();
  const keyCount = reader.u64();
  const metadata: GgufHeader['metadata'] = new Map();
  for (let index = 0; index < keyCount; index++) {
    const key = reader.string();
    metadata.set(key, reader.value(reader.u32()));
  }
  const architecture = metadata.get('general.architecture');
  if (typeof architecture !== 'string')
    throw new ConfigError('not a usable GGUF model: general.architecture is missing from its metadata', file);
  const missing = requiredKeys(architecture).filter((key) => !metadata.has(key));
  if (missing.length > 0)
    throw new ConfigError(`not a usable GGUF model: its metadata lacks ${missing.join(', ')}`, file);
  if (tensorCount === 0) throw new ConfigError('not a usable GGUF model: it holds no tensors', file);
  return { version, tensorCount, metadata, architecture };
}
