/**
 * The HTTP callers' `Authorization` headers, for MCP servers with `forward_authorization: true`
 * (docs/tools.md "Forwarding the caller's credentials", seed 003: "forwarded verbatim to tool
 * calls"). Held in this process's memory only, by the session the request started, until that
 * session finishes: never written to a claim, journal, result, log or trace, so a session resumed
 * after a restart has none. A delegated child (`<parent>.d<hash>`) uses its root session's.
 */

/** What the HTTP intake needs: hold a header for a session it is about to hand over, or let it go. */
export interface AuthorizationHolder {
  hold(sessionId: string, authorization: string): void;
  release(sessionId: string): void;
}

/** A delegated child's session id: its parent's, then `.d` and ten hex digits (src/pipeline/delegation.ts). */
const CHILD_SUFFIX = /\.d[0-9a-f]{10}$/;

export class ForwardedAuthorizations implements AuthorizationHolder {
  private readonly held = new Map<string, string>();
  private readonly releaseListeners: Array<(sessionId: string) => void> = [];

  hold(sessionId: string, authorization: string): void {
    this.held.set(sessionId, authorization);
  }

  /** Forgets the session's header (its session finished, or its request was refused). */
  release(sessionId: string): void {
    if (!this.held.delete(sessionId)) return;
    for (const listener of this.releaseListeners) listener(sessionId);
  }

  /** Called with each session whose header is let go (its connections can close). */
  onRelease(listener: (sessionId: string) => void): void {
    this.releaseListeners.push(listener);
  }

  /** The header held for `sessionId` or the root session it was delegated from, and that session's id; null: none. */
  of(sessionId: string): { sessionId: string; authorization: string } | null {
    for (let current = sessionId; ; current = current.replace(CHILD_SUFFIX, '')) {
      const authorization = this.held.get(current);
      if (authorization !== undefined) return { sessionId: current, authorization };
      if (!CHILD_SUFFIX.test(current)) return null;
    }
  }
}

/** Stands in for a forwarded header (or its credential) that a server sent back. */
export const FORWARDED_PLACEHOLDER = '[forwarded Authorization]';

/**
 * Removes a forwarded header from text a server sent back (a tool result, an error, a tool's
 * description) before it is journaled: the whole value and its credential after the scheme.
 */
export function withoutAuthorization(text: string, authorization: string | undefined): string {
  if (authorization === undefined) return text;
  const credential = /^\S+\s+(\S{8,})\s*$/.exec(authorization)?.[1];
  let scrubbed = text.split(authorization).join(FORWARDED_PLACEHOLDER);
  if (credential !== undefined) scrubbed = scrubbed.split(credential).join(FORWARDED_PLACEHOLDER);
  return scrubbed;
}
