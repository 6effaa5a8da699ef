/**
 * Request and session ids (README "Folder layout"): what an id may be, since it names files and
 * folders under system/, and the ids govflow makes itself. No I/O.
 */
import { randomInt } from 'node:crypto';

/**
 * A request id as README "Folder layout" allows it (`[A-Za-z0-9._-]{1,128}`, not `.` or `..`): it
 * names files in outbox/ and state/, so no path characters and no name that is a folder itself.
 */
export const REQUEST_ID_PATTERN = /^(?!\.\.?$)[A-Za-z0-9._-]{1,128}$/;

/** Session ids name folders under system/sessions/: the same rule as request ids. */
export function isSessionId(text: string): boolean {
  return REQUEST_ID_PATTERN.test(text);
}

const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz';

/** `length` random base-36 characters (crypto-grade, so two daemons do not collide). */
export function randomBase36(length: number): string {
  let text = '';
  for (let index = 0; index < length; index++) text += BASE36[randomInt(36)];
  return text;
}

function twoDigits(value: number): string {
  return String(value).padStart(2, '0');
}

/** `req-YYYYMMDD-HHmmss-<6 base36>` in UTC; parameters so a claim regenerates the same id (claim-name.ts). */
export function generateRequestId(at: Date = new Date(), random: string = randomBase36(6)): string {
  const date = `${at.getUTCFullYear()}${twoDigits(at.getUTCMonth() + 1)}${twoDigits(at.getUTCDate())}`;
  const time = `${twoDigits(at.getUTCHours())}${twoDigits(at.getUTCMinutes())}${twoDigits(at.getUTCSeconds())}`;
  return `req-${date}-${time}-${random}`;
}
