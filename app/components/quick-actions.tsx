import { ButtonLink, buttonClasses, TitledCard } from "~/components/ui";

export interface QuickAction {
  to: string;
  label: string;
  /** the page's main action, shown in the brand colour */
  primary?: boolean;
  /** a file download (a resource route), fetched by the browser rather than the router */
  download?: boolean;
}

/** The Quick Actions card of every portal's overview. */
export function QuickActions({ actions }: { actions: QuickAction[] }) {
  return (
    <TitledCard title="Quick Actions">
      <ul className="grid gap-2">
        {actions.map((action) => {
          const variant = action.primary ? "primary" : "secondary";
          return (
            <li key={action.to}>
              {action.download ? (
                <a href={action.to} download className={buttonClasses(variant, "md", "w-full")}>
                  {action.label}
                </a>
              ) : (
                <ButtonLink to={action.to} variant={variant} className="w-full">
                  {action.label}
                </ButtonLink>
              )}
            </li>
          );
        })}
      </ul>
    </TitledCard>
  );
}
