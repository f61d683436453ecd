/**
 * When background work gives way to requests: while at least `busyRequests` requests are in
 * flight, work is put off, until the oldest work put off is `maxWaitMs` old; from then on it runs
 * whatever the load, until `caughtUp` says nothing is left (then the next burst may put work off
 * again). A burst of requests is not slowed by the work it causes; sustained load delays that work
 * by `maxWaitMs` at most, never starves it.
 */
export class GiveWay {
  private putOffSince: number | null = null;

  constructor(
    private readonly busyRequests: number,
    private readonly maxWaitMs: number,
  ) {}

  /** Whether to put work off now, with `inFlight` requests in flight at `now` (ms). */
  wait(inFlight: number, now: number): boolean {
    if (inFlight < this.busyRequests) {
      return false;
    }
    this.putOffSince ??= now;
    return now - this.putOffSince < this.maxWaitMs;
  }

  /** Nothing is left to do. */
  caughtUp(): void {
    this.putOffSince = null;
  }
}
