/**
 * What routes and input templates cost per step (SPEC §24), beside the step's total: the example
 * chain (its objective_agent is routed) with a model that answers instantly, so the step's total is
 * govflow's own work. Then, over a committed session's real messages:
 *   - route: building the expression bindings and deciding objective_agent's two routes, per step;
 *   - template: rendering a two-part `input:` template, per step;
 *   - compile: parsing and planning one expression, paid once per governance version (the
 *     snapshot), never per message.
 * Figures: medians over BENCH_ROUTES_ROUNDS rounds (default 5) of BENCH_ROUTES_EVALS evaluations
 * (default 20,000); the step total from BENCH_ROUTES_SESSIONS sessions (default 100). Target:
 * routes and template together ≤ 2 % of the step.
 */
import path from 'node:path';
import {
  InstantProvider,
  cleanUpOnExit,
  envInteger,
  importBuilt,
  makeExampleRoot,
  now,
  quietLog,
  reportResult,
  requestText,
  round,
  summarize,
} from './bench-support.mjs';

const { openRuntime } = await importBuilt('daemon/runtime.js');
const { loadConfig } = await importBuilt('config/config-loader.js');
const { loadGovernance } = await importBuilt('governance/governance-loader.js');
const { compileExpression } = await importBuilt('governance/cel-expression.js');
const { compileTemplate, renderTemplate } = await importBuilt('governance/input-template.js');
const { expressionBindings, lastMessagesByAgent } = await importBuilt('pipeline/expression-scope.js');
const { decideRoute } = await importBuilt('pipeline/route-decision.js');
const { foldRecords } = await importBuilt('pipeline/session-state.js');
const { SessionJournal } = await importBuilt('store/journal-reader.js');

const SESSIONS = envInteger('BENCH_ROUTES_SESSIONS', 100);
const EVALS = envInteger('BENCH_ROUTES_EVALS', 20_000);
const ROUNDS = envInteger('BENCH_ROUTES_ROUNDS', 5);
const STEPS = 6;

const roots = [];
cleanUpOnExit(roots);
const root = makeExampleRoot('', 'govflow-bench-routes-');
roots.push(root);

// The step's total: whole sessions of the routed example chain.
const runtime = await openRuntime(root, { provider: new InstantProvider(), env: {}, log: quietLog() });
const signal = new AbortController().signal;
const stepMs = [];
let lastSession = null;
for (let index = 0; index < SESSIONS; index++) {
  const started = now();
  const outcome = await runtime.runner.startSession(
    { requestId: `routes-${index}`, text: requestText(index), sourceFile: 'bench.txt', claimedPath: null },
    signal,
  );
  if (outcome.status !== 'success') throw new Error(`session ${index} ended ${outcome.status}`);
  stepMs.push((now() - started) / STEPS);
  lastSession = outcome.sessionId;
}
await runtime.close();

const { snapshot } = loadGovernance(loadConfig(root, {}));
const objective = snapshot.agents.get('objective_agent');
if (!objective.routes?.length) throw new Error('the example objective_agent declares no routes');
const state = foldRecords(SessionJournal.read(path.join(root, 'system', 'sessions', lastSession)));
const objectiveMessage = state.messages[0].message;
const goalInput = state.messages[1].message.input.content;
const template = compileTemplate('Goals for "{{ request.text }}" from {{ agents.objective_agent.output.content }}');

/** Microseconds per call of `work`, median over rounds. */
function perCallMicros(work) {
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = now();
    for (let index = 0; index < EVALS; index++) work();
    rounds.push(((now() - started) * 1000) / EVALS);
  }
  return summarize(rounds);
}

let decided = null;
const route = perCallMicros(() => {
  decided = decideRoute(
    objective,
    expressionBindings(state, objectiveMessage, lastMessagesByAgent(state, objectiveMessage)),
  );
});
if (decided?.to !== 'goal_agent') throw new Error(`unexpected route ${JSON.stringify(decided)}`);
let rendered = null;
const render = perCallMicros(() => {
  rendered = renderTemplate(template, expressionBindings(state, goalInput, lastMessagesByAgent(state)));
});
if (!rendered?.ok) throw new Error(`template failed: ${JSON.stringify(rendered)}`);
const compile = perCallMicros(() => compileExpression('status.code == "success" && size(output.content) == 0'));

const step = summarize(stepMs);
const share = (micros) => `${round((micros / 1000 / step.median) * 100, 2)} %`;
console.log(`routes and templates, per step (SPEC §24), ${SESSIONS} sessions of the routed example chain:`);
console.log(`  step total (instant model):        ${round(step.median, 3)} ms (median)`);
console.log(`  route (bindings + 2 routes):       ${round(route.median, 2)} µs  = ${share(route.median)} of the step`);
console.log(
  `  input template (2 parts):          ${round(render.median, 2)} µs  = ${share(render.median)} of the step`,
);
console.log(`  compile one expression (once per governance version): ${round(compile.median, 2)} µs`);
const sharePercent = ((route.median + render.median) / 1000 / step.median) * 100;
reportResult({
  bench: 'routes-templates',
  title: 'Routes and input templates per step (SPEC §24)',
  config: { sessions: SESSIONS, evaluations: EVALS, rounds: ROUNDS, steps: STEPS },
  figures: [
    { name: 'ms per step (instant model)', unit: 'ms', median: round(step.median, 4) },
    { name: 'route: bindings + 2 routes', unit: 'µs', median: round(route.median, 3) },
    { name: 'input template: 2 parts', unit: 'µs', median: round(render.median, 3) },
    { name: 'compile one expression (once per governance version)', unit: 'µs', median: round(compile.median, 3) },
  ],
  targets: [
    {
      name: 'route + template share of a step',
      target: '≤ 2 %',
      value: round(sharePercent, 2),
      unit: '%',
      pass: sharePercent <= 2,
    },
  ],
});
