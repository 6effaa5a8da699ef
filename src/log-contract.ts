/** The operational log (not the audit log), a bottom-floor type so the pipeline, tools and intake share it without importing each other. */
export interface OperationalLog {
  /** Per-step detail (each step begun, each message committed): shown with GOVFLOW_LOG_LEVEL=debug. */
  debug?(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}
