/**
 * Who wrote a file, by the file system's word (docs/results.md: an approval in a reply file is its
 * owner's, whatever `user` it claims), named from /etc/passwd or else by uid.
 */
import { lstatSync, readFileSync } from 'node:fs';
import { userInfo } from 'node:os';

export function userNameOf(uid: number): string {
  try {
    if (uid === process.getuid?.()) return userInfo().username;
  } catch {
    // no passwd entry for the process's own uid: fall through
  }
  try {
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const [name, , id] = line.split(':');
      if (id !== undefined && Number(id) === uid && name) return name;
    }
  } catch {
    // no /etc/passwd (not a Unix-like system)
  }
  return String(uid);
}

/** The owner's user id of `file` (not following a symlink), or null when it cannot be read. */
export function ownerUidOf(file: string): number | null {
  try {
    return lstatSync(file).uid;
  } catch {
    return null;
  }
}

/**
 * Who sent a control (docs/run-control.md): over HTTP the token's user (honoured only in a file the
 * daemon's own OS user owns, which the API writes); else the control file's owner. A `by` the
 * file claims is kept as `claimedBy`, never trusted.
 */
export function controlActor(
  claimedPath: string,
  httpUser: string | null,
  claimed: string | null,
): { by: string; claimedBy: string | null } {
  const uid = ownerUidOf(claimedPath);
  if (httpUser !== null && uid !== null && uid === process.getuid?.()) return { by: httpUser, claimedBy: null };
  return { by: uid === null ? 'unknown' : userNameOf(uid), claimedBy: claimed };
}
