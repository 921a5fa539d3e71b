import { useRef, useState } from "react";
import { useWhenChanged } from "./use-when-changed";

/**
 * What went wrong with a form, held one way by every form (ADR 072). The browser runs
 * the action's own checks before sending (house rule 4); what it finds shows until the
 * server answers again, then the server's refusal does. Focus moves to whatever `focusRef`
 * is on (the banner or error summary) each time either changes, so keyboard and
 * screen-reader users hear it. `attempt` is the try this is, counted by both sides: the
 * form sends it back in a hidden field and the action counts on from it (nextAttempt).
 */
export function useFormFailure<Failure extends object>(
  answer: unknown,
  fromServer: (Failure & { attempt?: number }) | null,
) {
  const [fromBrowser, setFromBrowser] = useState<(Failure & { attempt: number }) | null>(null);
  const focusRef = useRef<HTMLDivElement>(null);
  // A new answer from the server replaces what the browser found. The answer the page came with is
  // not new: a send tapped while the page hydrates is checked before this effect first runs, and
  // clearing then would wipe what the browser just found (the form showed nothing).
  const answered = useRef(answer);
  useWhenChanged(() => {
    if (answered.current === answer) return;
    answered.current = answer;
    setFromBrowser(null);
  }, [answer]);
  useWhenChanged(() => focusRef.current?.focus(), [answer, fromBrowser]);
  const attempt = Math.max(fromServer?.attempt ?? 0, fromBrowser?.attempt ?? 0);
  return {
    failure: fromBrowser ?? fromServer,
    /** True while what shows is the browser's own finding, not the server's. */
    fromBrowser: fromBrowser !== null,
    attempt,
    focusRef,
    /** The browser's check refused the form (shown as the next try), or passed it (null). */
    browserFound: (failure: Failure | null) => setFromBrowser(failure ? { ...failure, attempt: attempt + 1 } : null),
  };
}
