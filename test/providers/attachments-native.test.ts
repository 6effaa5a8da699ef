/**
 * `attachments: native` (SPEC §22) through the real adapters: a daemon on a root whose entry agent
 * takes its request's PDFs and images as file parts, a request folder dropped into its inbox, and
 * the loopback server of each provider kind that takes them (openai, anthropic, google) receiving
 * the parts in that provider's own wire format, byte for byte; the other agents get the list only.
 * Elsewhere, or together with pii.redact, `govflow validate` refuses the key.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GovflowDaemon } from '../../src/daemon/daemon.js';
import { binaryBytes, dropFolder, sha256, userTextOf } from '../daemon/attachments-support.js';
import { buildDistOnce } from '../daemon/build-once.js';
import { readResults, runCli, waitFor } from '../daemon/daemon-helpers.js';
import { copyExampleAppInto } from '../support/example-app.js';
import { makeTempFolder, removeTempFolders } from '../support/temp-dirs.js';
import { agentOf, exampleAppReply } from './example-app-responder.js';
import { KINDS, providerLines, type KindCase } from './provider-kinds.js';
import { startResponderLlmServer, systemPromptOf, type ResponderLlmServer } from './responder-llm-server.js';

const SILENT = { info() {}, warn() {}, error() {} };
/** A real 1×1 PNG, and bytes standing for a PDF: what matters is that they arrive unchanged. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), binaryBytes(3000, 5), Buffer.from('\n%%EOF\n')]);
const NOTES = 'Renewal date: 1 May. Notice period: 90 days.\n';

let server: ResponderLlmServer;
beforeAll(async () => {
  await buildDistOnce();
  server = await startResponderLlmServer((request) => exampleAppReply(request.system));
}, 180_000);
afterAll(async () => {
  await server?.close();
  removeTempFolders();
});

function rootFor(testCase: KindCase, extra = ''): string {
  const root = makeTempFolder(`govflow-native-${testCase.kind}-`);
  copyExampleAppInto(root);
  writeFileSync(
    path.join(root, 'govflow.config.yaml'),
    ['timezone: UTC', ...providerLines(testCase, `${server.url}${testCase.basePath}`), extra, ''].join('\n'),
  );
  const entry = path.join(root, 'governance', 'agents', 'objective_agent.md');
  writeFileSync(entry, readFileSync(entry, 'utf8').replace('entry: true\n', 'entry: true\nattachments: native\n'));
  return root;
}

/** The file parts of a request body in its wire's own shape, as media type and decoded bytes. */
function filePartsOf(testCase: KindCase, body: any): Array<{ mediaType: string; bytes: Buffer; name?: string }> {
  const parts: Array<{ mediaType: string; bytes: Buffer; name?: string }> = [];
  const fromDataUrl = (url: string) => {
    const match = /^data:([^;]+);base64,(.*)$/s.exec(url);
    if (!match) throw new Error(`not a data URL: ${url.slice(0, 60)}`);
    return { mediaType: match[1], bytes: Buffer.from(match[2], 'base64') };
  };
  if (testCase.wire === 'openai') {
    // Chat Completions `messages`, or the Responses API's `input` (the `openai` kind).
    for (const message of body.messages ?? body.input)
      for (const part of Array.isArray(message.content) ? message.content : []) {
        if (part.type === 'image_url') parts.push(fromDataUrl(part.image_url.url));
        if (part.type === 'file') parts.push({ ...fromDataUrl(part.file.file_data), name: part.file.filename });
        if (part.type === 'input_image') parts.push(fromDataUrl(part.image_url));
        if (part.type === 'input_file') parts.push({ ...fromDataUrl(part.file_data), name: part.filename });
      }
  } else if (testCase.wire === 'anthropic') {
    for (const message of body.messages)
      for (const part of Array.isArray(message.content) ? message.content : []) {
        if (part.type === 'image' || part.type === 'document') {
          expect(part.source.type).toBe('base64');
          parts.push({ mediaType: part.source.media_type, bytes: Buffer.from(part.source.data, 'base64') });
        }
      }
  } else {
    for (const content of body.contents)
      for (const part of content.parts ?? [])
        if (part.inlineData)
          parts.push({ mediaType: part.inlineData.mimeType, bytes: Buffer.from(part.inlineData.data, 'base64') });
  }
  return parts;
}

describe('attachments: native', () => {
  for (const kind of ['openai', 'anthropic', 'google'] as const) {
    const testCase = KINDS.find((candidate) => candidate.kind === kind)!;
    it(`sends the PDFs and images to ${kind} as file parts of the first user message, in its wire format`, async () => {
      const root = rootFor(testCase);
      const daemon = await GovflowDaemon.start(root, {
        env: { [testCase.keyEnv]: testCase.key },
        log: SILENT,
        announce: () => {},
      });
      const firstRequest = server.requests.length;
      try {
        dropFolder(root, 'scanned-contract', {
          'request.txt': 'Summarise the scanned contract.\n',
          'contract.pdf': PDF,
          'pages/page-1.png': PNG,
          'notes.txt': NOTES,
        });
        const result = await waitFor(
          'the result',
          () => readResults(root).find((found) => found.source_file === 'scanned-contract'),
          {
            timeoutMs: 30_000,
          },
        );
        expect(result.status).toBe('success');
      } finally {
        await daemon.stop();
      }
      const requests = server.requests.slice(firstRequest);
      expect(requests.every((request) => request.wire === testCase.wire)).toBe(true);
      const entry = requests.filter((request) => agentOf(systemPromptOf(request.body)) === 'objective_agent');
      expect(entry).toHaveLength(1);
      const parts = filePartsOf(testCase, entry[0].body);
      expect(parts.map((part) => [part.mediaType, sha256(part.bytes)]).sort()).toEqual(
        [
          ['application/pdf', sha256(PDF)],
          ['image/png', sha256(PNG)],
        ].sort(),
      );
      if (kind === 'openai')
        expect(parts.find((part) => part.mediaType === 'application/pdf')?.name).toBe('contract.pdf');
      // The text parts: the request, the list, and the text attachment inline.
      const text = userTextOf(entry[0].body);
      expect(text).toContain('- attachments/contract.pdf (');
      expect(text).toContain('attached to this message as a file');
      expect(text).toContain(`[ATTACHMENT: attachments/notes.txt]\n${NOTES}`);
      // Only the entry agent is native: the others get the list alone.
      for (const other of requests.filter((request) => request !== entry[0])) {
        expect(filePartsOf(testCase, other.body)).toEqual([]);
        expect(userTextOf(other.body)).toContain('- attachments/pages/page-1.png (');
      }
    }, 60_000);
  }

  it('is a validate error for a provider kind that takes no file parts, and together with pii.redact', async () => {
    const compatible = rootFor(KINDS.find((candidate) => candidate.kind === 'openai-compatible')!);
    const other = await runCli(['validate', '--root', compatible]);
    expect(other.code).toBe(1);
    expect(other.stdout + other.stderr).toMatch(
      /governance\/agents\/objective_agent\.md:\d+.*attachments: native .*provider\.kind "openai-compatible" does not take/s,
    );
    const redacting = rootFor(
      KINDS.find((candidate) => candidate.kind === 'anthropic')!,
      'pii: { redact: [email] }',
    );
    const withPii = await runCli(['validate', '--root', redacting], { env: { ANTHROPIC_API_KEY: 'sk-ant-x' } });
    expect(withPii.code).toBe(1);
    expect(withPii.stdout + withPii.stderr).toMatch(/attachments: native .*pii\.redact is set/s);
    const fine = rootFor(KINDS.find((candidate) => candidate.kind === 'google')!);
    expect((await runCli(['validate', '--root', fine], { env: { GOOGLE_GENERATIVE_AI_API_KEY: 'x' } })).code).toBe(0);
  }, 60_000);
});
