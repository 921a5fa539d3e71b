import { useTranslation } from "~/i18n";
import { PASSWORD_RULES } from "~/schemas/signup";
import "virtual:catalogue/accounts";

/** The live password checklist. */
export function PasswordChecklist({ id, password }: { id: string; password: string }) {
  const { t } = useTranslation();
  return (
    <ul id={id} aria-label={t("accounts.signup.checklistLabel")} className="-mt-3 space-y-0.5 text-sm">
      {PASSWORD_RULES.map((rule) => {
        const met = rule.test(password);
        return (
          <li key={rule.id} data-met={met} className={met ? "text-green-800" : "text-slate-600"}>
            <span aria-hidden="true">{met ? "✓" : "○"}</span> {t(`accounts.signup.rules.${rule.id}`)}
            <span className="sr-only"> ({met ? t("accounts.signup.ruleMet") : t("accounts.signup.ruleNotMet")})</span>
          </li>
        );
      })}
    </ul>
  );
}
