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
import { type CallLimiter, memoryLimiter } from "../app.js";
import type { ResolvedConfig } from "../config.js";
import { ApiError } from "../errors.js";

export class SignInGuard {
  /**
   * `limiter` holds the failures: in memory per process, or in Redis shared by every process
   * (docs/scale-out.md); the keys are prefixed `fail-address:` and `fail-email:`.
   */
  constructor(
    private readonly limits: ResolvedConfig["signIn"],
    private readonly now: () => number,
    private readonly limiter: CallLimiter = memoryLimiter(),
  ) {}

  /** 604 when the address, or the e-mail when given, has used its failure budget. */
  async check(address: string, email?: string): Promise<void> {
    if (await this.overAddress(address)) throw new ApiError(API_ERROR.RATE_LIMIT);
    const { failuresPerEmail, failureWindowMs } = this.limits;
    if (
      email !== undefined &&
      (await this.limiter.count(`fail-email:${email}`, failureWindowMs, this.now())) >= failuresPerEmail
    )
      throw new ApiError(API_ERROR.RATE_LIMIT);
  }

  async overAddress(address: string): Promise<boolean> {
    const { failuresPerAddress, failureWindowMs } = this.limits;
    return (await this.limiter.count(`fail-address:${address}`, failureWindowMs, this.now())) >= failuresPerAddress;
  }

  /**
   * Records one failed token check of the address unless it is over its budget, in one limiter
   * call, so parallel checks cannot all pass the count before any is recorded; over it, nothing
   * is recorded and the answer is 604 (thrown).
   */
  async failToken(address: string): Promise<void> {
    const { failuresPerAddress, failureWindowMs } = this.limits;
    await this.limiter.admit(`fail-address:${address}`, failuresPerAddress, failureWindowMs, this.now());
  }

  /** Records one failed check of the address (and of the e-mail when given). */
  async fail(address: string, email?: string): Promise<void> {
    const now = this.now();
    await this.limiter.record(`fail-address:${address}`, this.limits.failureWindowMs, now);
    if (email !== undefined) await this.limiter.record(`fail-email:${email}`, this.limits.failureWindowMs, now);
  }
}
