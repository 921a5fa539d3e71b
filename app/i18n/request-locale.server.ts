import { AsyncLocalStorage } from "node:async_hooks";
import { setLocaleSource } from "./index";
import { DEFAULT_LOCALE, type Locale } from "./locales";

/**
 * The language of the request being answered (ADR 033). server/pages.ts runs
 * each render inside `inLocale`; everything it calls, through awaits, timers and
 * React's streaming, sees that language in `t`.
 */
const storage = new AsyncLocalStorage<Locale>();
setLocaleSource(() => storage.getStore() ?? DEFAULT_LOCALE);

export function inLocale<T>(locale: Locale, run: () => T): T {
  return storage.run(locale, run);
}
