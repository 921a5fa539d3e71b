import { type ComponentProps, useState } from "react";
import { inputClasses } from "~/components/ui/button";
import { useTranslation } from "~/i18n";
import "virtual:catalogue/accounts";

/** A password field with a show/hide toggle (the toggle needs JavaScript; the field works without). */
export function PasswordInput(props: Omit<ComponentProps<"input">, "type" | "className">) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  return (
    <div className="relative">
      <input {...props} type={visible ? "text" : "password"} className={`${inputClasses} pr-20`} />
      <button
        type="button"
        onClick={() => setVisible((v) => !v)}
        aria-controls={props.id}
        className="absolute inset-y-0 right-0 min-h-11 min-w-16 rounded-r-lg px-3 text-sm font-semibold text-brand-700 hover:bg-slate-100"
      >
        {visible ? t("accounts.login.hidePassword") : t("accounts.login.showPassword")}
      </button>
    </div>
  );
}
