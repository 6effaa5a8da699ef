/**
 * A person's answer to a paused session: a reply to its question, or a decision on the tool call
 * waiting for approval (bound to that call and its arguments, docs/results.md). Checked against
 * the journal, then journaled durably; what cannot apply is a ReplyRejectedError (its file goes to
 * system/failed/ with the reason).
 */
import type { ApprovalDecision } from '../intake/request-file.js';
import { ownerUidOf, userNameOf } from '../intake/file-owner.js';
import type { OperationalLog } from '../log-contract.js';
import type { ReplyRecord } from '../store/session-journal.js';
import { JOURNAL_FORMAT } from '../store/journal-format.js';
import type { ApprovalRecord } from '../store/tool-journal-records.js';
import type { ActiveSession } from './message-commit.js';
import { ReplyRejectedError } from './runner-contract.js';
import { applyRecord } from './session-state.js';
import type { PiiCounts } from '../privacy/pii-redactor.js';

export interface IncomingReply {
  text: string;
  sourceFile: string;
  claimedPath: string | null;
  approval?: ApprovalDecision;
  /** PII the intake took out of `text` already (cluster mode), counted on the next message. */
  piiCounts?: PiiCounts;
}

/** Journals `reply` on the paused session and folds it in; throws ReplyRejectedError when it cannot apply. */
export async function journalReply(
  active: ActiveSession,
  reply: IncomingReply,
  now: () => Date,
  log: OperationalLog | undefined,
): Promise<void> {
  const { state } = active;
  const sessionId = state.session.session_id;
  const reject = (message: string): never => {
    throw new ReplyRejectedError(message, { sessionId });
  };
  if (state.cancelled) {
    reject(
      `session "${sessionId}" was cancelled by ${state.cancelled.by} at ${state.cancelled.at}: its question or approval was withdrawn, and a ` +
        `reply no longer applies`,
    );
  }
  const paused = state.paused;
  if (!paused) {
    return reject(
      `session "${sessionId}" ${state.final ? 'has already finished' : 'is not waiting for a reply'}; a reply only resumes a session whose result is pending`,
    );
  }
  if (paused.awaiting === 'intervention' || paused.awaiting === 'halt')
    reject(
      `session "${sessionId}" waits for a steward's decision on its failed step, not for a reply: decide with govflow intervene ` +
        `${sessionId} --retry|--fail, or an "intervene" control file`,
    );
  if ((paused.awaiting === 'approval') !== (reply.approval !== undefined)) {
    reject(
      paused.awaiting === 'approval'
        ? `session "${sessionId}" waits for an approval of ${paused.tool ?? 'a tool call'}: reply with {"session_id": "${sessionId}", ` +
            `"approve": true|false, "reason"?: "...", "user"?: "..."}`
        : `session "${sessionId}" waits for an answer to its question, not for an approval: reply with {"session_id": "${sessionId}", "reply": "..."}`,
    );
  }
  if (reply.approval && paused.callId) {
    // Bound to the exact call (docs/results.md): a decision naming another call or other arguments is refused, and the call keeps waiting.
    const argsSha256 = paused.argsSha256 ?? '';
    if (reply.approval.callId !== null && reply.approval.callId !== paused.callId)
      reject(
        `the approval names call ${reply.approval.callId}, but session "${sessionId}" waits for call ${paused.callId} (${
          paused.tool ?? 'a ' + 'tool'
        }): the decision was not applied`,
      );
    if (reply.approval.argsSha256 !== null && reply.approval.argsSha256 !== argsSha256)
      reject(
        `the approval names args_sha256 ${reply.approval.argsSha256}, but the waiting call ${paused.callId} (${paused.tool ?? 'a tool'}) has ` +
          `arguments hashing to ${argsSha256}: they changed, or another call was meant; the decision was not applied`,
      );
    const decision: ApprovalRecord = {
      v: JOURNAL_FORMAT,
      type: 'approval',
      call_id: paused.callId,
      tool: paused.tool ?? '',
      approve: reply.approval.approve,
      reason: reply.approval.reason,
      ...decidedBy(reply.approval, reply.claimedPath),
      args_sha256: argsSha256,
      source_file: reply.sourceFile,
      claimed_path: reply.claimedPath,
      at: now().toISOString(),
    };
    await active.stored.recordApproval(decision);
    applyRecord(state, decision);
    log?.info(reply.approval.approve ? 'tool call approved' : 'tool call denied', {
      session: sessionId,
      tool: paused.tool,
      user: decision.user,
    });
    return;
  }
  // Cluster mode's intake redacted the reply already (src/cluster/store-vaults.ts): its counts come with it.
  active.privacy?.countUserInput(reply.piiCounts);
  const record: ReplyRecord = {
    v: JOURNAL_FORMAT,
    type: 'reply',
    reply: active.privacy ? active.privacy.redactUserText(reply.text) : reply.text,
    source_file: reply.sourceFile,
    claimed_path: reply.claimedPath,
    at: now().toISOString(),
  };
  await active.stored.recordReply(record);
  if (reply.claimedPath) active.privacy?.redactFile(reply.claimedPath);
  applyRecord(state, record);
  log?.info('session resumed by reply', { session: sessionId, source: reply.sourceFile });
}

/**
 * Who decided an approval (docs/results.md): over HTTP the token's user (honoured only in a file the
 * daemon's own OS user owns); else the reply file's owner, or whoever runs the reply from stdin.
 */
function decidedBy(
  approval: ApprovalDecision,
  claimedPath: string | null,
): { user: string; claimed_user: string | null } {
  const uid = claimedPath === null ? (process.getuid?.() ?? null) : ownerUidOf(claimedPath);
  if (approval.httpUser !== null && uid !== null && uid === process.getuid?.())
    return { user: approval.httpUser, claimed_user: null };
  return { user: uid === null ? 'unknown' : userNameOf(uid), claimed_user: approval.user };
}
