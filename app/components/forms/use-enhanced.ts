import { useEffect, useState } from "react";

/**
 * True once React has hydrated. Forms send it as a hidden field so the action
 * knows whether to answer with a message (JavaScript then redirects after a
 * pause) or with a plain redirect (no JavaScript).
 */
export function useEnhanced(): boolean {
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  return enhanced;
}
