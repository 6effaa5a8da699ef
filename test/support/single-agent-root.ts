/**
 * A temp root whose governance is one terminal agent, `worker_agent` (content type `report`), for
 * tests where a session is one model call: quick, and each scripted answer is one whole session.
 */
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { answer, makeRoot } from '../daemon/daemon-helpers.js';

/** The worker's successful answer. */
export const WORKER_DONE = answer({ content: { report: 'done' }, contentType: 'report' });

/** A root with `config` (YAML) and the worker agent only; `frontmatter` adds lines to its declaration. */
export function singleAgentRoot(config: string, frontmatter: string[] = []): string {
  const root = makeRoot(config);
  const agents = path.join(root, 'governance', 'agents');
  for (const file of readdirSync(agents)) rmSync(path.join(agents, file));
  writeFileSync(
    path.join(agents, 'worker_agent.md'),
    [
      '---',
      'name: worker_agent',
      'type: executional',
      'description: Does the work in one answer.',
      'entry: true',
      'next: []',
      'content_type: report',
      ...frontmatter,
      '---',
      '# Worker\nDo the work.\n',
    ].join('\n'),
  );
  return root;
}
