/**
 * Model text deltas that arrive in one turn of the event loop go on as at most two chunks: the
 * first at once, the rest together at the end of the turn. A provider's SDK turns one network read
 * into many small deltas (one per server-sent event, often a few words each), and each would
 * otherwise be a `content_chunk` for every listener and every open event stream
 * (docs/http-api.md). The text and its order are kept, and nothing waits past the current turn;
 * `flush` sends what is held at once (the call ended).
 */
export function batchedChunks(send: (chunk: string) => void): { push(chunk: string): void; flush(): void } {
  let held = '';
  let turn: NodeJS.Immediate | null = null;
  const flush = (): void => {
    if (turn !== null) clearImmediate(turn);
    turn = null;
    if (held.length === 0) return;
    const chunk = held;
    held = '';
    send(chunk);
  };
  return {
    push: (chunk) => {
      if (turn !== null) {
        held += chunk;
        return;
      }
      turn = setImmediate(flush);
      send(chunk);
    },
    flush,
  };
}
