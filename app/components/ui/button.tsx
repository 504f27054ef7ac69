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

/** A link that looks like a button (navigation is a link, never a button). */
export function ButtonLink({ variant = "primary", size = "md", className, ...props }: LinkProps & { variant?: Variant; size?: Size }) {
  return <Link className={buttonClasses(variant, size, className)} {...props} />;
}
