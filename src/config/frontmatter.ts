/** Markdown into YAML frontmatter and body, by hand: gray-matter evaluates JavaScript frontmatter and hides lines. */
import { GovflowError } from '../errors.js';

export interface SplitMarkdown {
  /** The YAML text between the fences, or null when the file has no frontmatter. */
  frontmatter: string | null;
  /** File line (1-based) where the YAML text starts. */
  frontmatterLine: number;
  body: string;
}

export class FrontmatterError extends GovflowError {
  override readonly name = 'FrontmatterError';
  constructor(
    message: string,
    readonly line: number,
  ) {
    super('config', message);
  }
}

export function splitFrontmatter(text: string): SplitMarkdown {
  const source = text.replace(/^\uFEFF/, '');
  const lines = source.split(/\r?\n/);
  if (lines[0]?.trim() !== '---') return { frontmatter: null, frontmatterLine: 0, body: source };
  for (let index = 1; index < lines.length; index++) {
    const line = lines[index].trim();
    if (line === '---' || line === '...') {
      return {
        frontmatter: lines.slice(1, index).join('\n'),
        frontmatterLine: 2,
        body: lines
          .slice(index + 1)
          .join('\n')
          .replace(/^\n+/, ''),
      };
    }
  }
  throw new FrontmatterError('frontmatter starts with "---" on line 1 but has no closing "---" line', 1);
}
