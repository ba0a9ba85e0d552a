import { useQuery } from "@tanstack/react-query";
import { api } from "../../app/api";

/** GET /health says `firstRun` while the server has no user yet (docs/dashboard.md "First run"). */
export function useFirstRun(enabled: boolean): boolean {
  const health = useQuery({
    queryKey: ["health"],
    queryFn: async () => {
      const r = await api.call<{ firstRun?: boolean }>("health", { quiet: true });
      return r.ok && r.data.firstRun === true;
    },
    enabled,
    staleTime: 0,
  });
  return health.data === true;
}

export const FIRST_RUN_TEXT =
  "No user yet: this is the server's first start. Register the first admin with the setup code that `spotdesk serve` printed (also in the file setup-code in its data directory): it goes in Code below. No e-mail code is needed.";

/** What Send code says instead of asking the server on a first start (the server would answer 'No such user...'). */
export const FIRST_RUN_SEND_CODE =
  "No e-mail code on the first start: the setup code printed by `spotdesk serve` goes in Code";

export function FirstRunHint({ firstRun }: { firstRun: boolean }) {
  if (!firstRun) return null;
  return (
    <p className="notice" role="status" data-testid="first-run">
      {FIRST_RUN_TEXT}
    </p>
  );
}
