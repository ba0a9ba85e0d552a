/**
 * Failed credential checks, counted per address, per e-mail and address, and per e-mail
 * (docs/server-limits.md "Sign-in").
 *
 * A guessable secret (an e-mail code, a password, the setup code) is checked only while the
 * caller's address, and the pair of the e-mail and that address, are under their failure
 * budgets; past either, the call is 604 before anything is checked. Failures are never counted
 * against the account alone: strangers failing from their own addresses, however many, never
 * stop the owner's valid code or key from another address (docs/decisions.md#d27, reasoned in
 * docs/server-limits.md with OWASP's lock-out guidance). The e-mail's own count only raises a warning in the log once it reaches
 * `failuresPerEmail`. Wrong codes never spend the owner's code (server/auth/codes.ts).
 *
 * A forged access token or a key signature is not guessable, so it is checked first and a
 * failure is counted after: the address gets 604 instead of 607 once over budget, and a valid
 * token or key from the same address still works. A refresh cookie is not a sign-in at all: it
 * is never counted, nor refused for its address's failures.
 */
import { API_ERROR } from "../../lib/api.js";
import type { Logger } from "../../lib/log.js";
import { type CallLimiter, memoryLimiter } from "../app.js";
import type { ResolvedConfig } from "../config.js";
import { ApiError } from "../errors.js";

export class SignInGuard {
  /**
   * `limiter` holds the failures: in memory per process, or in Redis shared by every process
   * (docs/scale-out.md); the keys are prefixed `fail-address:`, `fail-pair:` and `fail-email:`.
   */
  constructor(
    private readonly limits: ResolvedConfig["signIn"],
    private readonly now: () => number,
    private readonly limiter: CallLimiter = memoryLimiter(),
    private readonly logger?: Logger,
  ) {}

  /** 604 when the address, or the e-mail from this address when given, has used its failure budget. */
  async check(address: string, email?: string): Promise<void> {
    if (await this.overAddress(address)) throw new ApiError(API_ERROR.RATE_LIMIT);
    const { failuresPerEmailAndAddress, failureWindowMs } = this.limits;
    if (
      email !== undefined &&
      (await this.limiter.count(pairKey(email, address), failureWindowMs, this.now())) >= failuresPerEmailAndAddress
    )
      throw new ApiError(API_ERROR.RATE_LIMIT);
  }

  private async overAddress(address: string): Promise<boolean> {
    const { failuresPerAddress, failureWindowMs } = this.limits;
    return (await this.limiter.count(`fail-address:${address}`, failureWindowMs, this.now())) >= failuresPerAddress;
  }

  /**
   * Records one failed check of an unguessable secret (a token, a key signature) of the address
   * unless it is over its budget, in one limiter call, so parallel checks cannot all pass the
   * count before any is recorded; over it, nothing is recorded and the answer is 604 (thrown).
   */
  async failToken(address: string): Promise<void> {
    const { failuresPerAddress, failureWindowMs } = this.limits;
    await this.limiter.admit(`fail-address:${address}`, failuresPerAddress, failureWindowMs, this.now());
  }

  /**
   * Records one failed check of the address, and when the e-mail is given of the e-mail from this
   * address and of the e-mail; the e-mail's failures reaching `failuresPerEmail` are logged.
   */
  async fail(address: string, email?: string): Promise<void> {
    const now = this.now();
    const { failureWindowMs, failuresPerEmail } = this.limits;
    await this.limiter.record(`fail-address:${address}`, failureWindowMs, now);
    if (email === undefined) return;
    await this.limiter.record(pairKey(email, address), failureWindowMs, now);
    await this.limiter.record(`fail-email:${email}`, failureWindowMs, now);
    // logged once a window (when the count passes the mark), not on every failure after it
    if ((await this.limiter.count(`fail-email:${email}`, failureWindowMs, now)) === failuresPerEmail)
      this.logger?.warn("sign-in failures for one e-mail from many addresses: nothing is refused for them", {
        email,
        failures: failuresPerEmail,
        windowMs: failureWindowMs,
      });
  }
}

/** The e-mail and the address in one key (an e-mail holds no space; an address neither). */
const pairKey = (email: string, address: string) => `fail-pair:${email} ${address}`;
