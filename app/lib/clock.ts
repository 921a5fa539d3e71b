/**
 * The one clock every time-based rule reads (ADR 022, 070).
 * Outside production the NOW setting (an ISO time) moves it: the clock starts
 * at NOW and runs on from there, so a 14-day rule can be tried today. The
 * offset is set once at start-up (app/services.server.ts, scripts/job.ts).
 */
let offsetMs = 0;

/** Starts the clock at `nowIso` (undefined: real time). */
export function setClock(nowIso: string | undefined): void {
  offsetMs = nowIso ? Date.parse(nowIso) - Date.now() : 0;
}

export function currentTime(): Date {
  return new Date(Date.now() + offsetMs);
}
