import type { Credentials } from "../../lib/types.js";
import type { ExchangeAdapter, ExchangeOptions } from "../types.js";

// Placeholder until the paper exchange lands (issue 2); replaced by the real simulated exchange.
export function createPaperExchange(_credentials: Credentials, _options: ExchangeOptions): ExchangeAdapter {
  throw new Error("paper exchange not built yet");
}
