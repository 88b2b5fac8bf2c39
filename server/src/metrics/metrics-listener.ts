/**
 * The METRICS_PORT listener as the app context holds it. In a file of its own, importing
 * nothing: the context names it, and the metrics module reads the context.
 */
export interface MetricsListener {
  /** The port it listens on (METRICS_PORT, or the one taken for 0). */
  port(): number;
  close(): Promise<void>;
}
