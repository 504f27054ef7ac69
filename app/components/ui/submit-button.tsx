import { useNavigation } from "@remix-run/react";
import type { ButtonHTMLAttributes, ReactNode } from "react";
import { Button } from "./button";

/**
 * A submit button that says it is busy (and cannot be pressed twice) while its form is being
 * submitted. Matches on `intent` when several forms share a page.
 */
export function SubmitButton({
  children,
  busyLabel,
  intent,
  variant,
  size,
  disabled,
  className,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & {
  busyLabel: ReactNode;
  intent?: string;
  variant?: "primary" | "secondary" | "ghost" | "danger" | "inverse";
  size?: "sm" | "md" | "lg";
}) {
  const navigation = useNavigation();
  const busy =
    navigation.state === "submitting" &&
    (intent === undefined || navigation.formData?.get("intent") === intent) &&
    (props.formAction === undefined || navigation.formAction === props.formAction);
  return (
    <Button
      type="submit"
      variant={variant}
      size={size}
      className={className}
      name={intent ? "intent" : undefined}
      value={intent}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      {...props}
    >
      {busy ? busyLabel : children}
    </Button>
  );
}
