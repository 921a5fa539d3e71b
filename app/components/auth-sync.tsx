import { useEffect, useRef } from "react";
import { useRevalidator } from "react-router";

/** Coming back to a tab re-checks the session at most this often (BroadcastChannel covers the rest). */
const RECHECK_MS = 60_000;

/**
 * Signing in or out shows in the user's other tabs: a tab whose signed-in state changes tells the others over a
 * BroadcastChannel, and they reload their data.
 */
export function AuthSync({ signedIn }: { signedIn: boolean }) {
  const { revalidate } = useRevalidator();
  const previous = useRef(signedIn);
  const channel = useRef<BroadcastChannel>(null);

  useEffect(() => {
    let checkedAt = Date.now();
    const recheck = () => {
      if (document.visibilityState === "visible" && Date.now() - checkedAt > RECHECK_MS) {
        checkedAt = Date.now();
        revalidate();
      }
    };
    const bc = typeof BroadcastChannel === "function" ? new BroadcastChannel("bodima-auth") : null;
    if (bc) bc.onmessage = () => revalidate();
    channel.current = bc;
    document.addEventListener("visibilitychange", recheck);
    return () => {
      bc?.close();
      document.removeEventListener("visibilitychange", recheck);
    };
  }, [revalidate]);

  useEffect(() => {
    if (previous.current === signedIn) return;
    previous.current = signedIn;
    channel.current?.postMessage(signedIn);
  }, [signedIn]);

  return null;
}
