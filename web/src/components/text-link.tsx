import { Link, type LinkProps } from "react-router";

export function TextLink({ className = "", ...props }: LinkProps) {
  return (
    <Link
      className={`font-semibold text-brand-600 underline-offset-4 hover:underline dark:text-brand-400 ${className}`}
      {...props}
    />
  );
}
