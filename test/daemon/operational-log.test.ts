import { afterEach, describe, expect, it, vi } from 'vitest';
import { createOperationalLog } from '../../src/daemon/operational-log.js';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('operational log', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  function capture() {
    const writes: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      writes.push(String(chunk));
      return true;
    });
    return writes;
  }

  it('writes the lines of one turn of the event loop to stderr in one write, in order', async () => {
    const writes = capture();
    const log = createOperationalLog({ json: true, level: 'info' });
    try {
      for (let index = 0; index < 50; index++) log.info('session started', { session: `s-${index}` });
      log.debug?.('below the level', { session: 'hidden' });
      expect(writes).toEqual([]);
      await nextTurn();
      expect(writes).toHaveLength(1);
      const lines = writes[0]!.trimEnd().split('\n');
      expect(lines).toHaveLength(50);
      expect(lines.map((line) => (JSON.parse(line) as { session: string }).session)).toEqual(
        Array.from({ length: 50 }, (_, index) => `s-${index}`),
      );
      expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'info', message: 'session started' });
    } finally {
      log.close();
    }
  });

  it('flush writes what is pending at once (before a line on stdout), and close writes the rest', async () => {
    const writes = capture();
    const log = createOperationalLog({ json: false, level: 'info' });
    log.warn('disk alarm', { free: 10 });
    log.flush();
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatch(/ warn {2}disk alarm {2}free=10\n$/);
    log.error('stopping');
    log.close();
    expect(writes).toHaveLength(2);
    expect(writes[1]).toMatch(/ error stopping\n$/);
    await nextTurn();
    expect(writes).toHaveLength(2);
  });
});
