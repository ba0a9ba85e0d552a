/**
 * Failed credential checks, counted per address and per e-mail (docs/server-limits.md).
 *
 * A guessable secret (an e-mail code, a password, the setup code) is checked only while the
 * caller's address and the e-mail are under their failure budgets; past either, the call is 604
 * before anything is checked. The per-e-mail budget is well above the per-address one, so one
 * address that knows a user's e-mail spends its own budget long before it could touch the
 * owner's. Wrong codes never spend the owner's code (server/auth/codes.ts).
 *
 * A forged access token is not guessable (HMAC-SHA256), so a token is checked first and a
 * failure is counted after: the address gets 604 instead of 607 once over budget, and a valid
 * token from the same address still works.
 */
import { API_ERROR } from "../../lib/api.js";
import { RateLimiter } from "../app.js";
import type { ResolvedConfig } from "../config.js";
import { ApiError } from "../errors.js";

export class SignInGuard {
  private readonly byAddress = new RateLimiter();
  private readonly byEmail = new RateLimiter();

  constructor(
    private readonly limits: ResolvedConfig["signIn"],
    private readonly now: () => number,
  ) {}

  /** 604 when the address, or the e-mail when given, has used its failure budget. */
  check(address: string, email?: string): void {
    if (this.overAddress(address)) throw new ApiError(API_ERROR.RATE_LIMIT);
    const { failuresPerEmail, failureWindowMs } = this.limits;
    if (email !== undefined && this.byEmail.count(email, failureWindowMs, this.now()) >= failuresPerEmail)
      throw new ApiError(API_ERROR.RATE_LIMIT);
  }

  overAddress(address: string): boolean {
    const { failuresPerAddress, failureWindowMs } = this.limits;
    return this.byAddress.count(address, failureWindowMs, this.now()) >= failuresPerAddress;
  }

  /** Records one failed check of the address (and of the e-mail when given). */
  fail(address: string, email?: string): void {
    const now = this.now();
    this.byAddress.record(address, this.limits.failureWindowMs, now);
    if (email !== undefined) this.byEmail.record(email, this.limits.failureWindowMs, now);
  }
}
