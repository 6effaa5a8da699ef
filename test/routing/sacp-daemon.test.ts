/**
 * SPEC §24 SACP messages: seed 000's own example flow (§6: Researcher → Email Validator, which
 * receives `data.guesses`) run by `govflow start` with `message.format: sacp` against a loopback
 * OpenAI-compatible server. The prompt holds seed 000 §3.1; each answer is mapped to a Sentient
 * message (data → output.content, message → status.message), its `thought` journaled and hashed,
 * never passed on; `failure` fails with PROCESSING_ERROR; an answer that is not SACP is repaired.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ExchangeRecord } from '../../src/store/session-journal.js';
import { SessionJournal } from '../../src/store/journal-reader.js';
import { buildDistOnce } from '../daemon/build-once.js';
import { cleanupAll, runCli, startDaemon } from '../daemon/daemon-helpers.js';
import { startResponderLlmServer, type ResponderLlmServer } from '../providers/responder-llm-server.js';
import {
  agentNamed,
  auditBlocks,
  auditLine,
  byAgent,
  dropRequest,
  journalMessages,
  routedRoot,
  userText,
  waitForResult,
} from './routing-support.js';

beforeAll(buildDistOnce, 180_000);
afterEach(cleanupAll);
afterAll(cleanupAll);

let server: ResponderLlmServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

// Seed 000 §6, verbatim.
const RESEARCHER = {
  thought: 'I found the CEO is John Doe, but no direct email. I will guess standard formats.',
  status: 'success',
  data: { ceo_name: 'John Doe', domain: 'acme.com', guesses: ['john.doe@acme.com', 'jdoe@acme.com'] },
  message: 'I identified the CEO as John Doe.',
};
const VALIDATOR = {
  thought: 'Pinged servers. jdoe@acme.com is valid.',
  status: 'success',
  data: { valid_email: 'jdoe@acme.com' },
  message: 'The valid email is jdoe@acme.com',
};

const AGENTS = {
  researcher: {
    frontmatter: [
      'name: researcher',
      'type: operational',
      'description: Finds people and guesses their email.',
      'entry: true',
      'next: [email_validator]',
      'content_type: research',
    ],
  },
  email_validator: {
    frontmatter: [
      'name: email_validator',
      'type: executional',
      'description: Validates email guesses.',
      'next: []',
      'content_type: validation',
      "input: '{{ agents.researcher.output.content.guesses }}'",
    ],
  },
};

describe('SACP messages (message.format: sacp)', () => {
  it("runs seed 000's example flow end to end: Researcher → Email Validator", async () => {
    let notSacpOnce = true;
    server = await startResponderLlmServer(
      byAgent((agent, request) => {
        if (agent === 'researcher') {
          if (userText(request).includes('Globex'))
            return { ...RESEARCHER, status: 'failure', message: 'No CEO found.' };
          if (userText(request).includes('Initech'))
            return {
              ...RESEARCHER,
              status: 'clarification_needed',
              message: 'Which Initech: the US or the UK company?',
            };
          // The first answer is not SACP: the orchestrator sends it back with the problems.
          if (notSacpOnce) {
            notSacpOnce = false;
            return { status: 'done', data: {} };
          }
          return RESEARCHER;
        }
        return VALIDATOR;
      }),
    );
    const root = routedRoot(`${server.url}/v1`, AGENTS, 'message: { format: sacp }\n');
    const daemon = await startDaemon(root);

    dropRequest(root, 'acme', 'Find the email of the CEO of Acme Corp.');
    const result = await waitForResult(root, 'acme');
    expect(result.status).toBe('success');
    expect(result.output).toEqual({ valid_email: 'jdoe@acme.com' });
    expect(result.message).toBe('The valid email is jdoe@acme.com');

    // The prompt holds seed 000 §3.1.
    for (const system of server.arrivedSystems) {
      expect(system).toContain('### SYSTEM PROTOCOL: RESPONSE FORMAT INSTRUCTIONS');
      expect(system).toContain('"status": "success" | "failure" | "clarification_needed"');
      expect(system).not.toContain('[SYSTEM PROTOCOL: RESPONSE FORMAT]');
    }
    // The repair told the model what was wrong with its SACP answer.
    expect(JSON.stringify(server.requests[1].body)).toMatch(/not a valid SACP answer.*thought.*status/);

    const [researched, validated] = journalMessages(root, result.session_id).map((record) => record.message);
    expect(researched).toMatchObject({
      output: { content: RESEARCHER.data, content_type: 'research' },
      status: { code: 'success', message: RESEARCHER.message },
      next_agent: { name: 'email_validator' },
    });
    // The validator receives data.guesses, as in seed 000 §6; never the thought.
    expect(validated.input.content).toEqual(RESEARCHER.data.guesses);
    expect(validated.output.content).toEqual(VALIDATOR.data);
    const validatorCall =
      server.requests[server.arrivedSystems.findLastIndex((system) => agentNamed(system) === 'email_validator')];
    expect(JSON.stringify(validatorCall.body)).not.toContain('standard formats');
    expect(JSON.stringify(result)).not.toContain('standard formats');

    // The journal keeps the SACP answer; the entry hashes its thought.
    const exchanges = SessionJournal.read(path.join(root, 'system', 'sessions', result.session_id)).filter(
      (record): record is ExchangeRecord => record.type === 'exchange',
    );
    expect(JSON.parse(exchanges.at(-2)!.response!)).toEqual(RESEARCHER);
    const entries = auditBlocks(root).filter((block) => block.includes(`[SESSION_ID: ${result.session_id}]`));
    expect(auditLine(entries[0], 'REASONING')).toEqual({
      chars: RESEARCHER.thought.length,
      sha256: createHash('sha256').update(RESEARCHER.thought).digest('hex'),
    });

    // SACP failure: the message fails with PROCESSING_ERROR and the message as error_message.
    dropRequest(root, 'globex', 'Find the email of the CEO of Globex.');
    const failed = await waitForResult(root, 'globex');
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatchObject({ error_code: 'PROCESSING_ERROR', error_message: 'No CEO found.' });

    // SACP clarification_needed: the session pauses with the message as its question.
    dropRequest(root, 'initech', 'Find the email of the CEO of Initech.');
    const paused = await waitForResult(root, 'initech');
    expect(paused).toMatchObject({ status: 'pending', message: 'Which Initech: the US or the UK company?' });

    const verified = await runCli(['verify', '--root', root]);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    await daemon.stop();
  }, 120_000);
});
