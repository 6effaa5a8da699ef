/** YAML parsing that remembers where each key stood, so that errors can name file and line. */
import { LineCounter, parseDocument, isMap, isPair, isScalar, isSeq, type Node } from 'yaml';
import { ConfigError } from '../errors.js';

export interface YamlSource {
  value: unknown;
  /** 1-based line of the key at `path` (or its closest existing parent); `firstLine` is added. */
  lineOf(path: readonly (string | number)[]): number;
}

/**
 * Parses YAML text. `firstLine` is the file line where the text starts (frontmatter starts at 2).
 * Throws ConfigError with file and line for syntax errors.
 */
export function parseYamlSource(text: string, file: string, firstLine = 1): YamlSource {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const toFileLine = (offset: number) => lineCounter.linePos(offset).line + firstLine - 1;
  if (document.errors.length > 0) {
    const first = document.errors[0];
    const line = toFileLine(first.pos[0]);
    throw new ConfigError(`invalid YAML: ${first.message.split('\n')[0]}`, file, line, { cause: first });
  }
  return {
    value: document.toJS(),
    lineOf(path) {
      let node: unknown = document.contents;
      let line = firstLine;
      for (const segment of path) {
        // A list item (`tools: [..]` entries) points at its own line.
        if (isSeq(node)) {
          const item = node.items[Number(segment)] as Node | undefined;
          if (!item || !item.range) break;
          line = toFileLine(item.range[0]);
          node = item;
          continue;
        }
        if (!isMap(node)) break;
        const pair = node.items.find(
          (item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(segment),
        );
        if (!pair) break;
        const key = pair.key as Node;
        if (key.range) line = toFileLine(key.range[0]);
        node = pair.value;
      }
      return line;
    },
  };
}
