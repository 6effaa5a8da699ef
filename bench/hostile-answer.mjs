/**
 * Hostile answer: peak resident memory of govflow while a model answers every call with 50 MB
 * (issue 18: it used to be accepted whole, 1.5 GB peak). A separate process plays the model: an
 * OpenAI-compatible server that writes BENCH_HOSTILE_MB megabytes of answer text per call, as a
 * stream or as one JSON body (no Content-Length), or an endless stream. This process runs whole
 * sessions through `openRuntime` + `runner.startSession` (what `govflow run` does) with the
 * default config (llm.max_output_bytes 1 MiB, max_retries 2: three hostile calls per session).
 *
 * Figures: peak RSS of this process over all scenarios (`process.resourceUsage().maxRSS`, which
 * includes start-up), RSS before, each scenario's wall time and the megabytes the server managed
 * to send before govflow cut the answer.
 * Target: peak RSS < 250 MB; every session ends failed VALIDATION_ERROR naming the limit.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';

const MEGABYTES = Number(process.env.BENCH_HOSTILE_MB ?? 50);

if (process.argv[2] === '--serve') serve();
else await measure();

/** The hostile model: every request gets a flood; reports bytes sent per request on stdout. */
function serve() {
  const piece = 'x'.repeat(64 * 1024);
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const wantsStream = /"stream":\s*true/.test(body);
      const endless = process.env.BENCH_HOSTILE_ENDLESS === '1';
      let left = endless ? Number.POSITIVE_INFINITY : MEGABYTES * 1024 * 1024;
      let sent = 0;
      const frame = wantsStream
        ? (text) =>
            'data: ' +
            JSON.stringify({
              id: 'c',
              object: 'chat.completion.chunk',
              created: 1,
              model: 'hostile',
              choices: [{ index: 0, delta: { content: text }, finish_reason: null }],
            }) +
            '\n\n'
        : (text) => text;
      response.writeHead(200, { 'content-type': wantsStream ? 'text/event-stream' : 'application/json' });
      const write = (text) => {
        sent += text.length;
        return response.write(text);
      };
      if (!wantsStream)
        write(
          '{"id":"c","object":"chat.completion","created":1,"model":"hostile","choices":[{"index":0,"message":{"role":"assistant","content":"{\\"output\\":\\"',
        );
      const pump = () => {
        while (!response.destroyed) {
          if (left <= 0) {
            write(
              wantsStream
                ? 'data: ' +
                    JSON.stringify({
                      id: 'c',
                      object: 'chat.completion.chunk',
                      created: 1,
                      model: 'hostile',
                      choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
                    }) +
                    '\n\ndata: [DONE]\n\n'
                : '\\"}"},"finish_reason":"stop"}]}',
            );
            response.end();
            return;
          }
          left -= piece.length;
          if (!write(frame(piece))) return void response.once('drain', pump);
        }
      };
      response.on('close', () => process.stdout.write(`SENT ${sent}\n`));
      pump();
    });
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write(`PORT ${server.address().port}\n`));
}

async function startModel(endless) {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--serve'], {
    env: { ...process.env, BENCH_HOSTILE_ENDLESS: endless ? '1' : '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const sent = [];
  let buffered = '';
  const port = await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      buffered += chunk;
      for (let newline; (newline = buffered.indexOf('\n')) !== -1;) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (line.startsWith('PORT ')) resolve(Number(line.slice(5)));
        if (line.startsWith('SENT ')) sent.push(Number(line.slice(5)));
      }
    });
    child.on('exit', (code) => reject(new Error(`the hostile model exited (${code})`)));
  });
  return { port, sent, stop: () => child.kill() };
}

async function measure() {
  const { cleanUpOnExit, importBuilt, makeExampleRoot, reportResult, round, sleep } =
    await import('./bench-support.mjs');
  const { openRuntime } = await importBuilt('daemon/runtime.js');
  const roots = [];
  cleanUpOnExit(roots);
  const MB = 1024 * 1024;
  const rssBefore = process.memoryUsage().rss / MB;
  let sampledPeak = 0;
  const sampler = setInterval(() => (sampledPeak = Math.max(sampledPeak, process.memoryUsage().rss / MB)), 10);

  const scenarios = [
    { name: `${MEGABYTES} MB streamed`, stream: true, endless: false },
    { name: `${MEGABYTES} MB as one body`, stream: false, endless: false },
    { name: 'endless stream', stream: true, endless: true },
  ];
  const figures = [];
  let allCut = true;
  for (const scenario of scenarios) {
    const model = await startModel(scenario.endless);
    const root = makeExampleRoot(
      `provider:\n  kind: openai-compatible\n  model: hostile\n  base_url: http://127.0.0.1:${model.port}/v1\n  stream: ${scenario.stream}\n`,
    );
    roots.push(root);
    const runtime = await openRuntime(root, { env: {} });
    const started = performance.now();
    let outcome;
    try {
      outcome = await runtime.runner.startSession(
        {
          requestId: `hostile-${figures.length}`,
          text: 'Summarize the note.',
          sourceFile: 'hostile.txt',
          claimedPath: null,
        },
        new AbortController().signal,
      );
    } finally {
      await runtime.close();
    }
    const seconds = (performance.now() - started) / 1000;
    await sleep(200);
    model.stop();
    const cut =
      outcome.status === 'failed' &&
      outcome.result.error?.error_code === 'VALIDATION_ERROR' &&
      String(outcome.result.message).includes('llm.max_output_bytes (1048576)');
    allCut &&= cut;
    const sentMb = model.sent.map((bytes) => round(bytes / MB, 1));
    console.log(
      `${scenario.name}: ${outcome.status} ${outcome.result.error?.error_code ?? ''} in ${seconds.toFixed(2)} s; the model sent ` +
        `${sentMb.join(', ')} MB per call before the cut`,
    );
    figures.push({
      name: `${scenario.name}: session wall time`,
      unit: 's',
      median: round(seconds, 2),
      runs: 1,
      note: `sent per call: ${sentMb.join(' / ')} MB`,
    });
  }
  clearInterval(sampler);
  const peak = process.resourceUsage().maxRSS / 1024;
  console.log(
    `RSS before ${rssBefore.toFixed(1)} MB, sampled peak ${sampledPeak.toFixed(1)} MB, maxRSS ${peak.toFixed(1)} MB`,
  );
  reportResult({
    bench: 'hostile-answer',
    title: `Peak memory while a model answers ${MEGABYTES} MB per call`,
    config: { megabytes: MEGABYTES },
    figures: [{ name: 'RSS before', unit: 'MB', median: round(rssBefore, 1), runs: 1 }, ...figures],
    targets: [
      { name: 'peak RSS', target: '< 250 MB', value: round(peak, 1), unit: 'MB', pass: peak < 250 },
      {
        name: 'every hostile answer cut at llm.max_output_bytes',
        target: 'all',
        value: allCut ? 'all' : 'not all',
        unit: '',
        pass: allCut,
      },
    ],
  });
}
