/**
 * The part of govflow.config.yaml the governance hash covers: it names what steered an agent, so
 * adding an HTTP token or moving the store must not look like a governance change.
 */
import { stringify } from 'yaml';

/**
 * Top-level keys left out: how the daemon is reached, run, observed and stored, and how the audit
 * trail is protected, none of which changes what an agent is told, may do or answers. Every other
 * key stays in, including keys added later: the hash errs on covering too much.
 */
export const OPERATIONAL_CONFIG_KEYS: readonly string[] = [
  'http',
  'daemon',
  'intake',
  'telemetry',
  'store',
  'cluster',
  'audit',
  'notify',
];

/** The governance keys as YAML, or null when there are none; layout and comments steer no agent, so they do not count. */
export function configGovernancePart(written: Readonly<Record<string, unknown>>): string | null {
  const governing = Object.fromEntries(
    Object.entries(written).filter(([key]) => !OPERATIONAL_CONFIG_KEYS.includes(key)),
  );
  if (Object.keys(governing).length === 0) return null;
  return stringify(governing, { lineWidth: 0 });
}
