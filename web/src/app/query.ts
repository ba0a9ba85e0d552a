import { QueryClient, useQuery } from "@tanstack/react-query";
import type { AccountAnswer, BotFillsAnswer, UserAnswer } from "../../../lib/api.js";
import { api } from "./api";
import { useSession } from "./session-store";

export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 10_000 } },
});

/** A query over the backend client: a failed call has no data (docs/api.md#errors) and was already toasted. */
async function data<T>(p: Promise<{ ok: true; data: T } | { ok: false; code: number; msg: string }>): Promise<T> {
  const r = await p;
  if (!r.ok) throw new Error(r.msg);
  return r.data;
}

export function useClients() {
  const { accessToken } = useSession();
  return useQuery({
    queryKey: ["clients"],
    queryFn: () => data(api.call<string[]>("clients")),
    enabled: Boolean(accessToken),
  });
}

export function useAccounts() {
  const { accessToken } = useSession();
  return useQuery({
    queryKey: ["exchanges"],
    queryFn: () => data(api.call<AccountAnswer[]>("exchanges")),
    enabled: Boolean(accessToken),
  });
}

export function useUsers() {
  return useQuery({ queryKey: ["users"], queryFn: () => data(api.call<UserAnswer[]>("users")) });
}

export function useUser(uuid: string) {
  return useQuery({
    queryKey: ["user", uuid],
    queryFn: () => data(api.call<UserAnswer>("user", { params: { id: uuid } })),
  });
}

/** docs/bots.md "What each bot did": a bot's newest 100 fills (GET /token/bot/{id}/fills), while its details are open. */
export function useBotFills(botId: string) {
  return useQuery({
    queryKey: ["bot-fills", botId],
    queryFn: () => data(api.call<BotFillsAnswer>("botFills", { params: { id: botId }, quiet: true })),
    staleTime: 0,
    refetchInterval: 5000,
  });
}
