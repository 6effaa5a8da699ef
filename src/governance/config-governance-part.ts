/**
 * The part of govflow.config.yaml that the governance hash covers. The hash names what steered an
 * agent (audit entries' GOVERNANCE_VERSION, system/snapshots/<hash>.json), so config that only
 * says how the daemon is run and reached stays out of it: adding an HTTP token or moving the
 * store must not look like a governance change.
 */
import { stringify } from 'yaml';

/**
 * Top-level keys left out, and why none of them changes what an agent is told, may do or answers:
 * - `http`: who may call the API (tokens) and how it listens (address, body limit, timeouts);
 * - `daemon`: shutdown grace and fsync, i.e. durability;
 * - `intake`: how the inbox is polled and how many sessions run at once, the size of a request it takes;
 * - `telemetry`: where traces are exported;
 * - `store`, `cluster`: where sessions and the audit trail are kept (the store URL may carry a password);
 * - `audit`: signing, witnesses and retention of the trail, which protect the record, not the run.
 * Everything else (provider, llm, limits, message, prompt, tools, mcp, prices, pii, guardrails,
 * agents, timezone, ...) stays in, including keys added later, so the hash errs on covering too much.
 */
export const OPERATIONAL_CONFIG_KEYS: readonly string[] = ['http', 'daemon', 'intake', 'telemetry', 'store', 'cluster', 'audit'];

/**
 * The governance keys of the config as YAML, in the order written, or null when there are none
 * (no file, or only operational keys). Comments and layout do not count: they steer no agent, and
 * `govflow token add` rewrites the file's layout.
 */
export function configGovernancePart(written: Readonly<Record<string, unknown>>): string | null {
  const governing = Object.fromEntries(Object.entries(written).filter(([key]) => !OPERATIONAL_CONFIG_KEYS.includes(key)));
  if (Object.keys(governing).length === 0) return null;
  return stringify(governing, { lineWidth: 0 });
}
