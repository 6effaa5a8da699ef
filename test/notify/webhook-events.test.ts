/**
 * The events a session's end or pause makes (SPEC §20), and the one delivery backlog under them
 * (src/store/delivery-backlog.ts) with real files in a temp folder: a cancel is session_finished
 * plus session_cancelled; ids are stable per event and distinct across events; a held item waits
 * for its release; an unordered target goes on past an item it cannot deliver, an ordered one does
 * not; a `once` id delivered before is not queued again after a reopen.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { webhookEventsOf, type SessionNotice } from '../../src/notify/webhook-events.js';
import { DeliveryBacklog, type DeliveryRecord } from '../../src/store/delivery-backlog.js';
import { waitFor } from '../daemon/daemon-helpers.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const END: SessionNotice = {
  sessionId: 'sess-1',
  requestId: 'req-1',
  user: 'alice',
  status: 'success',
  at: '2026-03-08T10:00:00.000Z',
};

describe('webhook events of a notice', () => {
  it('makes session_finished for an end, and session_cancelled as well for a cancel', () => {
    expect(webhookEventsOf(END).map((event) => event.type)).toEqual(['session_finished']);
    const cancelled = webhookEventsOf({ ...END, status: 'cancelled' });
    expect(cancelled.map((event) => event.type)).toEqual(['session_finished', 'session_cancelled']);
    expect(cancelled.map((event) => JSON.parse(event.body).data.status)).toEqual(['cancelled', 'cancelled']);
    expect(new Set(cancelled.map((event) => event.id)).size).toBe(2);
    expect(cancelled.every((event) => !event.once)).toBe(true);
  });

  it('makes session_paused, and approval_requested for an approval; one id per pause, the same when told again', () => {
    const reply = webhookEventsOf({ ...END, status: 'pending', pause: { key: 'reply:m1', awaiting: 'reply' } });
    expect(reply.map((event) => event.type)).toEqual(['session_paused']);
    const approval = { ...END, status: 'pending', pause: { key: 'approval:c1', awaiting: 'approval' as const } };
    const first = webhookEventsOf(approval);
    expect(first.map((event) => event.type)).toEqual(['session_paused', 'approval_requested']);
    expect(first.every((event) => event.once)).toBe(true);
    const again = webhookEventsOf({ ...approval, at: '2026-03-09T00:00:00.000Z' });
    expect(again.map((event) => event.id)).toEqual(first.map((event) => event.id));
    const next = webhookEventsOf({ ...approval, pause: { key: 'approval:c2', awaiting: 'approval' } });
    expect(next[0].id).not.toBe(first[0].id);
    expect(webhookEventsOf(END)[0].id).toBe(webhookEventsOf({ ...END, at: 'later' })[0].id);
  });

  it('writes the body Standard Webhooks receivers verify once signed', () => {
    const secret = `whsec_${Buffer.from('0123456789abcdef0123').toString('base64')}`;
    const [event] = webhookEventsOf(END);
    const now = new Date();
    const signer = new Webhook(secret);
    const headers = {
      'webhook-id': event.id,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': signer.sign(event.id, now, event.body),
    };
    expect(new Webhook(secret).verify(event.body, headers)).toEqual({
      type: 'session_finished',
      timestamp: END.at,
      data: {
        session_id: 'sess-1',
        request_id: 'req-1',
        status: 'success',
        user: 'alice',
        links: {
          self: '/v1/requests/req-1',
          events: '/v1/requests/req-1/events',
          session_events: '/v1/sessions/sess-1/events',
        },
      },
    });
  });
});

/** A target that fails the ids in `refuse` and records what it was sent. */
function target(name: string, refuse: Set<string>) {
  const sent: string[] = [];
  return {
    sent,
    target: {
      name,
      async send(record: DeliveryRecord<string>) {
        sent.push(record.id);
        if (refuse.has(record.id)) throw new Error(`refused ${record.id}`);
      },
    },
  };
}

function backlog(
  folder: string,
  targets: Array<{ name: string; send: (record: DeliveryRecord<string>) => Promise<void> }>,
  ordered: boolean,
) {
  return new DeliveryBacklog<string>({
    folder,
    targets,
    ordered,
    giveUpAfterMs: null,
    backoff: { baseMs: 5, maxMs: 20 },
    durable: false,
    noun: 'item',
    targetNoun: 'target',
  }).open();
}

async function until(what: string, probe: () => boolean): Promise<void> {
  await waitFor(what, probe, { timeoutMs: 5000, intervalMs: 5 });
}

describe('the delivery backlog', () => {
  it('holds an item until released, goes past one it cannot deliver (unordered), and keeps only the rest across a reopen', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'govflow-backlog-'));
    folders.push(folder);
    const refuse = new Set(['a']);
    const { sent, target: t } = target('t1', refuse);
    const queue = backlog(folder, [t], false);
    const release = await queue.enqueue('h', 'held', { hold: true });
    await queue.enqueue('a', 'A');
    await queue.enqueue('b', 'B');
    await until('b delivered past a', () => sent.includes('b'));
    expect(sent).not.toContain('h');
    release();
    await until('h delivered', () => sent.includes('h'));
    expect(queue.lag()).toMatchObject([{ target: 't1', waiting: 1, lastError: 'refused a' }]);
    await queue.close(null);
    // Reopened, only what was not delivered waits, with its last error.
    const { sent: again, target: reopened } = target('t1', new Set(['a']));
    const second = backlog(folder, [reopened], false);
    expect(second.lag()).toMatchObject([{ waiting: 1, lastError: 'refused a' }]);
    await until('a tried again', () => again.includes('a'));
    expect(again.every((id) => id === 'a')).toBe(true);
    await second.close(null);
  });

  it('keeps the order of an ordered target: nothing passes an item it cannot deliver', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'govflow-backlog-'));
    folders.push(folder);
    const refuse = new Set(['1']);
    const { sent, target: t } = target('ordered', refuse);
    const queue = backlog(folder, [t], true);
    await queue.enqueue('1', 'one');
    await queue.enqueue('2', 'two');
    await until('a few tries of 1', () => sent.filter((id) => id === '1').length >= 3);
    expect(sent).not.toContain('2');
    refuse.clear();
    await until('2 after 1', () => sent.includes('2'));
    expect(sent.filter((id) => id !== '1')).toEqual(['2']);
    await queue.close(null);
  });

  it('does not queue again an id flagged once that was delivered, even after a reopen; other ids wait across one', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'govflow-backlog-'));
    folders.push(folder);
    const { sent, target: t } = target('t', new Set(['stuck']));
    const first = backlog(folder, [t], false);
    await first.enqueue('pause-1', 'p', { once: true });
    await first.enqueue('stuck', 's');
    await until('pause-1 delivered', () => sent.includes('pause-1'));
    await first.close(null);
    const { sent: later, target: again } = target('t', new Set());
    const second = backlog(folder, [again], false);
    await second.enqueue('pause-1', 'p', { once: true });
    await until('stuck delivered after the reopen', () => later.includes('stuck'));
    // Nothing left to send: a pause-1 queued again would wait in the backlog until delivered.
    await until('the backlog empty', () => second.lag().every((lag) => lag.waiting === 0));
    expect(later).toEqual(['stuck']);
    await second.close(null);
  });
});
