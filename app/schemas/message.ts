import type { Translator } from "~/i18n";
import type { MessageKey } from "~/i18n/keys.generated";

/**
 * Models speak in keys, never sentences (ADR 028): a text someone will read is a
 * catalogue key and its values, turned into words where it is shown, in the
 * reader's language.
 */
export type Message = { key: MessageKey; values?: Record<string, string | number> };

/**
 * Why a listing was hidden or a moderator acted: the words a person typed (shown
 * as typed, in whatever language they wrote) or a message the system chose.
 */
export type Reason = { text: string } | Message;

/** How a system message is stored in a text column (listings.hiddenReason, audit_log.reason). */
export function storeMessage(message: Message): string {
  return JSON.stringify(message);
}

/**
 * A stored reason as the screens show it. `bySystem` says the row was written by
 * the system (a listing hidden by reports, a "listing.auto-hide" audit entry), so
 * its column holds a stored message; rows written by people hold their words.
 */
export function readReason(stored: string, bySystem: boolean): Reason {
  if (bySystem && stored.startsWith("{")) {
    try {
      const parsed: unknown = JSON.parse(stored);
      if (parsed && typeof parsed === "object" && typeof (parsed as Message).key === "string") {
        // The system wrote it with storeMessage; the key stays a key of the catalogues
        // (renaming one needs a migration of stored rows, ADR 028).
        return parsed as Message;
      }
    } catch {
      // Not a stored message after all: show it as written.
    }
  }
  return { text: stored };
}

/** The words of a reason in the reader's language (`t` is their translator). */
export function reasonText(t: Translator, reason: Reason): string {
  return "key" in reason ? t(reason.key, reason.values) : reason.text;
}
