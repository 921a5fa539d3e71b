import { type EffectCallback, useEffect } from "react";

/**
 * Runs `effect` after a render in which one of `triggers` changed: a new answer from the
 * server clears what the browser found, a new page closes a menu, a new message takes focus.
 * The triggers say when, not what the effect reads, so they are not its dependencies.
 */
export function useWhenChanged(effect: EffectCallback, triggers: readonly unknown[]): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: the triggers decide when the effect runs, by design
  useEffect(effect, triggers);
}
