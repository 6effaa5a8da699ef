/** The real daemon exports its spans when it stops (SPEC §14: nothing is lost on a clean stop). */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from '../daemon/build-once.js';
import { cleanupAll, dropJson, makeRoot, readResult, startDaemon, waitFor } from '../daemon/daemon-helpers.js';
import { OtlpReceiver } from './otlp-receiver.js';

beforeAll(buildDistOnce, 180_000);
afterEach(cleanupAll);
afterAll(cleanupAll);

describe('daemon tracing', () => {
  it('holds spans in its batch until SIGTERM, then exports them all before it exits', async () => {
    const collector = await OtlpReceiver.start();
    try {
      const root = makeRoot('timezone: UTC\n');
      // A batch delay of ten minutes: only the stop can have sent these spans.
      const daemon = await startDaemon(root, {
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_SCHEDULE_DELAY: '600000' },
      });
      expect(daemon.stderr).toContain('tracing on');
      dropJson(root, 'note.json', { request: 'Summarize: Ana books the venue.', request_id: 'trace-stop-1' });
      const result = await waitFor('the result', () => readResult(root, 'trace-stop-1'), {
        detail: () => daemon.stderrTail(),
      });
      expect(collector.spans).toHaveLength(0);
      const exit = await daemon.stop('SIGTERM');
      expect(exit.code).toBe(0);
      const workflow = collector.spans.filter((span) => span.name === 'invoke_workflow govflow');
      expect(workflow).toHaveLength(1);
      expect(workflow[0].attributes['gen_ai.conversation.id']).toBe(result.session_id);
      expect(collector.spans.filter((span) => span.name.startsWith('invoke_agent ')).length).toBe(result.messages);
      expect(
        collector.spans
          .filter((span) => span.name.startsWith('chat '))
          .every((span) => span.attributes['gen_ai.provider.name'] === 'dry-run'),
      ).toBe(true);
    } finally {
      await collector.close();
    }
  });
});
