import { expect } from 'vitest';

/**
 * What a call on a kept-alive socket the server has just closed notes (src/llm/node-http-fetch.ts):
 * on Node 20 the pool hands the stale socket back and govflow replaces it before writing, with one
 * note; Node 22's and 24's pools drop a socket whose close has arrived before it reuses it, so there is
 * nothing to replace and nothing to note. Either way the call reaches the server once (the callers
 * assert that).
 */
export function expectStaleSocketNote(notes: string[]): void {
  if (Number(process.versions.node.split('.')[0]) >= 22) {
    expect(notes.length).toBeLessThanOrEqual(1);
  } else expect(notes).toHaveLength(1);
  for (const note of notes)
    expect(note).toMatch(/closed by the server before the request was written; sent on a new connection/);
}
