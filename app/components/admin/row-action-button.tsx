import { useNavigation } from "@remix-run/react";
import type { ButtonHTMLAttributes, ReactNode } from "react";
import { Button } from "~/components/ui";

/**
 * A submit button in one of many identical row forms (a course's status toggle, an account's
 * Approve): only the row being submitted says it is busy, matched on its record id.
 */
export function RowActionButton({
  intent,
  recordField,
  recordId,
  busyLabel,
  children,
  variant,
  size = "sm",
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & {
  intent: string;
  recordField: string;
  recordId: string;
  busyLabel: ReactNode;
  variant?: "primary" | "secondary" | "ghost" | "danger";
  size?: "sm" | "md";
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === intent && navigation.formData?.get(recordField) === recordId;
  return (
    <Button type="submit" name="intent" value={intent} variant={variant} size={size} disabled={busy} aria-busy={busy || undefined} {...props}>
      {busy ? busyLabel : children}
    </Button>
  );
}
