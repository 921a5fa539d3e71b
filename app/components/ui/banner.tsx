import type { ComponentProps, ReactNode } from "react";
import { CheckCircleIcon, ErrorIcon, OfflineIcon, WarningIcon } from "./icons";

export type BannerVariant = "success" | "warning" | "error" | "network";

const styles: Record<BannerVariant, { box: string; icon: string; Icon: typeof ErrorIcon }> = {
  success: { box: "border-green-300 bg-green-50 text-green-900", icon: "text-green-700", Icon: CheckCircleIcon },
  warning: { box: "border-amber-300 bg-amber-50 text-amber-950", icon: "text-amber-700", Icon: WarningIcon },
  error: { box: "border-red-300 bg-red-50 text-red-900", icon: "text-red-700", Icon: ErrorIcon },
  network: { box: "border-orange-300 bg-orange-50 text-orange-950", icon: "text-orange-700", Icon: OfflineIcon },
};

type BannerProps = Omit<ComponentProps<"div">, "title"> & {
  variant: BannerVariant;
  /** The words that carry the meaning (never colour alone). */
  title: ReactNode;
  children?: ReactNode;
};

/**
 * A message box with an icon and a title. Errors are announced at once
 * (role="alert"); other kinds politely (role="status").
 */
export function Banner({ variant, title, children, className = "", ...props }: BannerProps) {
  const { box, icon, Icon } = styles[variant];
  return (
    <div
      role={variant === "error" || variant === "network" ? "alert" : "status"}
      className={`flex gap-3 rounded-lg border p-4 ${box} ${className}`}
      {...props}
    >
      <Icon className={`mt-0.5 h-5 w-5 shrink-0 ${icon}`} />
      <div className="min-w-0">
        <p className="font-semibold">{title}</p>
        {children ? <div className="mt-1 text-sm">{children}</div> : null}
      </div>
    </div>
  );
}
