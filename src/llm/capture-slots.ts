/**
 * The slot the recording provider opens around each call (AsyncLocalStorage) and the AI SDK's
 * recording middleware fills (recording-middleware.ts); apart from both, so recording a provider
 * that is not the SDK's does not load the SDK.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RecordedAnswer } from './cassette-format.js';

/** Where the middleware puts the answer of the call being recorded (the last successful attempt wins). */
export interface CaptureSlot {
  answer: RecordedAnswer | null;
}

export const captureSlots = new AsyncLocalStorage<CaptureSlot>();
