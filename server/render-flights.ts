/**
 * One render per page at a time in a worker (ADR 108). The first request for
 * a page the cache cannot answer renders it (it leads); the requests for the
 * same page that come while it does follow: they get the copy a listing
 * write made stale a moment ago when there is one, or else wait for the
 * leader's answer and are served the page it stored. A follower whose leader
 * stored nothing (a 404, a page with a cookie, a refusal) renders for itself,
 * as does one that waited `followMs`: following never makes a request wait
 * longer than rendering would, and never hides an answer that was not stored.
 */

export type FlightsOptions = {
  /** The longest a follower waits for its leader before it renders for itself. */
  followMs: number;
  /** Followers one page may have; more render for themselves (the render gate then decides). */
  maxFollowers: number;
};

/** What a follower is told when its leader is done (or it waited long enough): look in the cache again. */
type Follower = () => void;

export function createRenderFlights({ followMs, maxFollowers }: FlightsOptions) {
  const flights = new Map<string, Follower[]>();

  return {
    /** Pages being rendered now (tests, metrics). */
    get size() {
      return flights.size;
    },
    /** Whether a render of `key` is under way. */
    flying(key: string): boolean {
      return flights.has(key);
    },
    /**
     * This request renders `key`. Returns what tells its followers to look in the cache again:
     * call it once the page is stored (or not), and when the request ends in any case.
     */
    lead(key: string): () => void {
      const followers: Follower[] = [];
      flights.set(key, followers);
      return () => {
        if (flights.get(key) === followers) flights.delete(key);
        for (const follower of followers.splice(0)) follower();
      };
    },
    /**
     * Waits for the render of `key` under way; `then` runs once, when it is done or after
     * `followMs`. False when no render is under way or it has followers enough (render instead).
     */
    follow(key: string, then: () => void): boolean {
      const followers = flights.get(key);
      if (!followers || followers.length >= maxFollowers) return false;
      let called = false;
      const once = () => {
        if (called) return;
        called = true;
        clearTimeout(timer);
        then();
      };
      const timer = setTimeout(() => {
        const at = followers.indexOf(once);
        if (at !== -1) followers.splice(at, 1);
        once();
      }, followMs);
      timer.unref();
      followers.push(once);
      return true;
    },
  };
}

export type RenderFlights = ReturnType<typeof createRenderFlights>;
