/**
 * The one source of time. Production uses the system clock; tests pass a ManualClock and
 * advance it instead of sleeping, so expiry rules (sessions, reset links) are tested exactly.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export class ManualClock implements Clock {
  #epochMs: number;
  constructor(start: Date = new Date()) {
    this.#epochMs = start.getTime();
  }
  now(): Date {
    return new Date(this.#epochMs);
  }
  advance(milliseconds: number): void {
    this.#epochMs += milliseconds;
  }
}
