/**
 * Where a webhook may go (SPEC §20, docs/webhooks.md): not to a loopback, link-local (the cloud
 * metadata service at 169.254.169.254), private or unspecified address, nor to this machine's own
 * addresses (the daemon's API among them), unless `notify.allow_private_targets: true`. Checked on
 * the URL as written (an error at `govflow validate` and at the daemon's start), on what its host
 * resolves to (at validate; a host that does not resolve is a warning there), and again at each
 * delivery, whose connection then goes to the address checked (a rebinding DNS cannot answer twice).
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { GovflowConfig } from '../config/config-loader.js';
import { ConfigError, errorMessage, GovflowError } from '../errors.js';
import { isInternalAddress } from '../tools/http-get-tool.js';

/** The address a delivery connects to. */
export interface TargetAddress {
  address: string;
  family: number;
}

/** Every address of this machine's interfaces (lower case, no zone). */
function ownAddresses(): Set<string> {
  const own = new Set<string>();
  for (const entries of Object.values(networkInterfaces()))
    for (const entry of entries ?? []) own.add(entry.address.toLowerCase().replace(/%.*$/, ''));
  return own;
}

/** Why `address` is no target for a webhook, or null. */
function privateAddressProblem(address: string): string | null {
  const bare = address.toLowerCase().replace(/%.*$/, '');
  if (isInternalAddress(bare)) return `${address}, a loopback, link-local, private or unspecified address`;
  if (ownAddresses().has(bare)) return `${address}, an address of this machine (the daemon's own API among them)`;
  return null;
}

function hostOf(url: string): string {
  return new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
}

const ALLOW_HINT =
  'send webhooks to a public endpoint, or set notify.allow_private_targets: true if this receiver is meant (docs/webhooks.md)';

/** The problem with `url` as written (an IP literal, localhost), or null; no lookup. */
export function writtenTargetProblem(url: string): string | null {
  const host = hostOf(url);
  if (host === 'localhost' || host.endsWith('.localhost')) return `its host ${host} is the loopback interface`;
  if (isIP(host) === 0) return null;
  const problem = privateAddressProblem(host);
  return problem === null ? null : `its host is ${problem}`;
}

/** `notify.webhooks` URLs written as private targets, as config errors (the daemon refuses to start on them too). */
export function writtenTargetErrors(config: GovflowConfig): ConfigError[] {
  if (config.notify.allow_private_targets) return [];
  const errors: ConfigError[] = [];
  for (const [index, webhook] of config.notify.webhooks.entries()) {
    const problem = writtenTargetProblem(webhook.url);
    if (problem !== null)
      errors.push(
        new ConfigError(
          `notify.webhooks[${index}].url ${webhook.url}: ${problem}: ${ALLOW_HINT}`,
          'govflow.config.yaml',
        ),
      );
  }
  return errors;
}

/** What `govflow validate` finds by resolving the webhooks' host names: errors for private targets, warnings for hosts that do not resolve. */
export async function resolvedTargetProblems(
  config: GovflowConfig,
): Promise<{ errors: ConfigError[]; warnings: string[] }> {
  const errors: ConfigError[] = [];
  const warnings: string[] = [];
  for (const [index, webhook] of config.notify.webhooks.entries()) {
    const host = hostOf(webhook.url);
    if (isIP(host) !== 0 || writtenTargetProblem(webhook.url) !== null) continue;
    let addresses: Array<{ address: string }>;
    try {
      addresses = await lookup(host, { all: true });
    } catch (error) {
      const why = (error as { code?: string }).code ?? errorMessage(error);
      warnings.push(
        `notify.webhooks[${index}].url ${webhook.url}: its host ${host} cannot be resolved now (${why}); ` +
          'deliveries wait and are retried until it resolves',
      );
      continue;
    }
    if (config.notify.allow_private_targets) continue;
    const problem = addresses.map(({ address }) => privateAddressProblem(address)).find((found) => found !== null);
    if (problem)
      errors.push(
        new ConfigError(
          `notify.webhooks[${index}].url ${webhook.url}: its host ${host} resolves to ${problem}: ${ALLOW_HINT}`,
          'govflow.config.yaml',
        ),
      );
  }
  return { errors, warnings };
}

/**
 * The address one delivery to `url` connects to, checked now; null when private targets are
 * allowed (the connection resolves as usual). Throws a GovflowError saying why no delivery is made.
 */
export async function deliveryAddress(url: string, allowPrivate: boolean): Promise<TargetAddress | null> {
  if (allowPrivate) return null;
  const host = hostOf(url);
  let target: TargetAddress;
  if (isIP(host) !== 0) target = { address: host, family: isIP(host) };
  else {
    const written = writtenTargetProblem(url);
    if (written !== null)
      throw new GovflowError('config', `not sent: ${written} (notify.allow_private_targets is off)`);
    try {
      target = await lookup(host);
    } catch (error) {
      throw new GovflowError(
        'provider',
        `cannot resolve ${host}: ${(error as { code?: string }).code ?? errorMessage(error)}`,
      );
    }
  }
  const problem = privateAddressProblem(target.address);
  if (problem !== null)
    throw new GovflowError(
      'config',
      `not sent: ${host === target.address ? 'its host is' : `${host} resolves to`} ${problem} (notify.allow_private_targets is off)`,
    );
  return target;
}
