/**
 * Preloaded into a daemon child (`NODE_OPTIONS=--import <this file>`) to run it days ahead of the
 * real clock: `SHIFT_CLOCK_DAYS=45` makes `Date.now()` and `new Date()` read 45 days later, so
 * retention sees days pass (test/audit/retention.test.ts). Everything else runs unchanged.
 */
const shiftMs = Number(process.env.SHIFT_CLOCK_DAYS ?? 0) * 86_400_000;
if (shiftMs !== 0) {
  const RealDate = Date;
  class ShiftedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(RealDate.now() + shiftMs);
      else super(...args);
    }
    static now() {
      return RealDate.now() + shiftMs;
    }
  }
  globalThis.Date = ShiftedDate;
}
