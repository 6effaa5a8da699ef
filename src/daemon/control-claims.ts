/**
 * A claimed control as both backends apply it (docs/run-control.md; files: inbox-controls.ts,
 * cluster: src/cluster/store-intake.ts): the order it makes — who sent it, and its operator
 * entry's id, named after the claim so that a control applied again after a crash is known — and
 * its settling: the outcome the CLI reads, and the event the HTTP API hears.
 */
import path from 'node:path';
import type { SystemPaths } from '../config/system-paths.js';
import { errorMessage } from '../errors.js';
import type { IntakeControl } from '../intake/claimed-file.js';
import { claimedAtOf } from '../intake/claim-name.js';
import { writeControlOutcome, type ControlOutcome, type ControlVerdict } from '../intake/control-outcome.js';
import { controlActor } from '../intake/file-owner.js';
import type { OperationalLog } from '../log-contract.js';
import type { ControlOrder } from '../pipeline/run-controls.js';
import { controlIdOf } from '../pipeline/session-cancel.js';
import type { SessionEvents } from '../pipeline/session-events.js';
import type { ControlFields } from '../store/session-journal.js';

/** The order a claimed control makes: the same for the same claim, after any crash. */
export function controlOrderFor(item: IntakeControl): ControlOrder {
  const actor = controlActor(item.claimedPath, item.httpUser, item.by);
  return {
    controlId: controlIdOf(path.basename(item.claimedPath)),
    by: actor.by,
    claimedBy: actor.claimedBy,
    reason: item.reason,
    // When the control was claimed (its claim name says; else when it was received).
    claimedAt: (claimedAtOf(item.claimedPath) ?? item.receivedAt).toISOString(),
    sourceFile: item.sourceFile,
  };
}

/** An order's fields as a queued cancel and a fork's request document write them. */
export function controlFieldsOf(order: ControlOrder): ControlFields {
  return {
    control_id: order.controlId,
    by: order.by,
    claimed_by: order.claimedBy,
    reason: order.reason,
    claimed_at: order.claimedAt,
    source_file: order.sourceFile,
  };
}

/** Where a settled control is told. */
export interface ControlSettling {
  paths: Pick<SystemPaths, 'state'>;
  durable: boolean;
  log: OperationalLog;
  events: SessionEvents;
}

/** Tells how a control ended: its outcome written for the CLI (a failed write is logged), then the live event. */
export function settleControl(item: IntakeControl, verdict: ControlVerdict, to: ControlSettling): void {
  const settled: ControlOutcome = {
    control: item.action,
    session_id: item.sessionId,
    ...verdict,
    source_file: item.sourceFile,
    at: new Date().toISOString(),
  };
  try {
    writeControlOutcome(to.paths, settled, to.durable);
  } catch (error) {
    to.log.warn('cannot record the outcome of a control for the CLI', { error: errorMessage(error) });
  }
  to.events.emit('control_settled', settled);
}
