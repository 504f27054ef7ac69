import { Link, type LinkProps } from "@remix-run/react";
import type { ButtonHTMLAttributes } from "react";
import { cn } from "~/utils/cn";

type Variant = "primary" | "secondary" | "ghost" | "danger" | "inverse";
type Size = "sm" | "md" | "lg";

/**
 * Each variant and size is one class in app/tailwind.css (`.btn`, `.btn-primary`, `.btn-md`…)
 * rather than its dozen utilities: a list page repeats its buttons, and every repeat was 300
 * bytes of class names to render, compress and send. A className passed in is a utility, so it
 * wins over the component classes (Tailwind emits utilities after components).
 */
const variants: Record<Variant, string> = {
  primary: "btn-primary",
  secondary: "btn-secondary",
  ghost: "btn-ghost",
  danger: "btn-danger",
  inverse: "btn-inverse",
};
const sizes: Record<Size, string> = {
  sm: "btn-sm",
  md: "btn-md",
  lg: "btn-lg",
};

export function buttonClasses(variant: Variant = "primary", size: Size = "md", className?: string) {
  return cn("btn", variants[variant], sizes[size], className);
}

export function Button({
  variant = "primary",
  size = "md",
  className,
  type = "button",
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; size?: Size }) {
  return <button type={type} className={buttonClasses(variant, size, className)} {...props} />;
}

/**
 * What makes a link a tap target of its own (44 px tall, as every control on a phone) where it is a
 * row's control rather than a word of a sentence: a file to download, a record to open. A long name
 * wraps inside it rather than widening the page.
 */
export const TAP_LINK = "inline-flex min-h-11 max-w-full items-center [overflow-wrap:anywhere]";

/** A link that looks like a button (navigation is a link, never a button). */
export function ButtonLink({ variant = "primary", size = "md", className, ...props }: LinkProps & { variant?: Variant; size?: Size }) {
  return <Link className={buttonClasses(variant, size, className)} {...props} />;
}
