import { setupI18n } from "@lingui/core";

/** The one i18n instance; catalogues load into it (see catalogue-plugin.ts). */
export const i18n = setupI18n({ locale: "en", messages: { en: {} } });
