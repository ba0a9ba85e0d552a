import type { AccountPath } from "../../../../lib/api.js";

export function BotsDialog(_props: { path: AccountPath; pair: string }) {
  return (
    <button type="button" className="btn">
      Bots
    </button>
  );
}
