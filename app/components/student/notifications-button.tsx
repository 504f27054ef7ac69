import { NavLink } from "@remix-run/react";
import { cn } from "~/utils/cn";
import { buttonClasses } from "~/components/ui";

/** The top bar's notifications button: a link to the list, with the unread count. */
export function NotificationsButton({ unread }: { unread: number }) {
  return (
    <NavLink to="/student/notifications" className={({ isActive }) => cn(buttonClasses("inverse", "sm"), "relative", isActive && "bg-white/10")}>
      <svg aria-hidden viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2">
        <path
          strokeLinecap="round"
          strokeLinejoin="round"
          d="M15 17h5l-1.4-1.4A2 2 0 0 1 18 14.2V11a6 6 0 1 0-12 0v3.2a2 2 0 0 1-.6 1.4L4 17h5m6 0a3 3 0 1 1-6 0"
        />
      </svg>
      <span className="sr-only sm:not-sr-only">Notifications</span>
      {unread > 0 ? (
        <span className="rounded-full bg-hivis-500 px-1.5 text-xs font-bold tabular-nums text-steel-950" data-testid="notification-count">
          {unread > 99 ? "99+" : unread}
          <span className="sr-only"> unread</span>
        </span>
      ) : null}
    </NavLink>
  );
}
