/**
 * A claimed file's name in system/processing/: `<epoch ms>-<6 base36>-<original name>`. After a
 * crash the file is all that is left, so its name carries what rebuilds the same item: the
 * original name, when it came, and (from time and random part) the same generated request id.
 */
import path from 'node:path';
import { compactInTimeZone } from '../message/zoned-time.js';
import { generateRequestId, randomBase36 } from './request-ids.js';

const CLAIM_NAME_PATTERN = /^(\d{1,16})-([0-9a-z]{6})-(.+)$/s;

export interface ClaimName {
  /** The file name in system/processing/. */
  claimName: string;
  originalName: string;
  claimedAt: Date;
  random: string;
}

/** A fresh, unique claim name for `originalName` (unique across daemons: time plus 31 bits of chance). */
export function claimNameFor(originalName: string, now: Date = new Date()): string {
  return `${now.getTime()}-${randomBase36(6)}-${originalName}`;
}

/** Splits a claim name (or a path ending in one); null when the name was not made by claimNameFor. */
export function parseClaimName(claimedPath: string): ClaimName | null {
  const claimName = path.basename(claimedPath);
  const match = CLAIM_NAME_PATTERN.exec(claimName);
  if (!match) return null;
  const [, milliseconds, random, originalName] = match;
  return { claimName, originalName, claimedAt: new Date(Number(milliseconds)), random };
}

/** The name the operator gave the file (a file put in processing/ by hand keeps its own). */
export function originalNameOf(claimedPath: string): string {
  return parseClaimName(claimedPath)?.originalName ?? path.basename(claimedPath);
}

/** When the file was claimed; for a hand-placed file, null (the caller uses the file's mtime). */
export function claimedAtOf(claimedPath: string): Date | null {
  return parseClaimName(claimedPath)?.claimedAt ?? null;
}

/** The id generated for a request that names none: the same on every call for a claim name. */
export function generatedRequestIdFor(claimedPath: string): string {
  const claim = parseClaimName(claimedPath);
  return claim ? generateRequestId(claim.claimedAt, claim.random) : generateRequestId();
}

/** The session id for a request that names none: derived from the claim, so a restart finds it again. */
export function sessionIdForClaim(claimedPath: string, timezone: string): string {
  const claim = parseClaimName(claimedPath);
  const at = claim?.claimedAt ?? new Date();
  return `sess-${compactInTimeZone(at, timezone, true)}-${claim?.random ?? randomBase36(6)}`;
}
