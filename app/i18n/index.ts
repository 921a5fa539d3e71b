import i18next from "i18next";
import { initReactI18next, useTranslation } from "react-i18next";
import { en } from "./en";

/**
 * All UI text comes from message catalogues (app/i18n/<lang>/). English is the
 * only language for now; Sinhala (si) and Tamil (ta) add a folder each.
 */
export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  lng: "en",
  fallbackLng: "en",
  resources: { en: { translation: en } },
  initAsync: false,
  interpolation: { escapeValue: false }, // React escapes
  returnNull: false,
});

/** For server code (loaders, meta, emails): translate without a component. */
export function t(key: string, options: Record<string, unknown> = {}): string {
  return i18n.t(key, options) as string;
}

export { useTranslation };
