/** Sign-in calls of docs/api.md#calls: /credentials, /code, /register, /login/*, /user/refresh, /user/logout. */
import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { z } from "zod";
import { API_ERROR, HEADER, type RefreshAnswer, SERVER_LIMITS } from "../../lib/api.js";
import { codeSchema, emailSchema, passwordSchema } from "../../lib/schemas.js";
import type { App } from "../app.js";
import { claimEmailCode, issueEmailCode, WRONG_CREDENTIALS } from "../auth/codes.js";
import { hashPassword, safeEqual, sha256Hex, verifyPassword } from "../auth/secrets.js";
import { issueSession, refreshSession, revokeSession } from "../auth/session.js";
import { verifyEnrollment, verifyKeyLogin } from "../auth/webauthn.js";
import { ApiError, taskFailed } from "../errors.js";
import type { RequestContext, RouteHandlers } from "../http.js";
import type { UserRecord } from "../storage/types.js";

export const SETUP_CODE_META = "setup_code_hash";
export const setupCodeFile = (dataDir: string) => join(dataDir, "setup-code");

function field<S extends z.ZodType>(schema: S, value: string, name: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw taskFailed(`Invalid ${name}: ${parsed.error.issues[0]?.message ?? "bad value"}`);
  return parsed.data;
}

/** docs/decisions.md#d8: more than 30 s between the client's timestamp and the server clock is 605. */
function checkTimestamp(app: App, ctx: RequestContext): number {
  const text = ctx.requireHeader(HEADER.timestamp);
  if (!/^\d{1,16}$/.test(text)) throw taskFailed("Header timestamp must be milliseconds since the epoch");
  const ts = Number(text);
  if (Math.abs(app.now() - ts) > SERVER_LIMITS.clockSkewMs) throw new ApiError(API_ERROR.CLOCK_SKEW);
  return ts;
}

/** A key whose attestation verified, not yet stored. */
type VerifiedKey = Awaited<ReturnType<typeof verifyEnrollment>>;

/**
 * Optional key creation beside a code sign-in (docs/dashboard-rules.md#screens "optional checkbox to create a
 * public key"), step one: the key is verified, and refused when registered already, before the sign-in
 * writes anything, so a refused key leaves the account, the code and the setup code as they were.
 */
async function checkEnrollment(
  app: App,
  ctx: RequestContext,
  email: string,
  code: string,
): Promise<VerifiedKey | undefined> {
  const attestation = ctx.header(HEADER.publicKey);
  const credentialsId = ctx.header(HEADER.credentialsId);
  if (attestation === undefined && credentialsId === undefined) return undefined;
  const clientData = ctx.header(HEADER.clientData);
  if (attestation === undefined || credentialsId === undefined || clientData === undefined)
    throw new ApiError(API_ERROR.MISSING_HEADER);
  const verified = await verifyEnrollment(app, {
    email,
    code,
    credentialsId,
    attestationObject: attestation,
    clientData,
  });
  if (await app.storage.getCredential(verified.id)) throw taskFailed("This key is already registered", 409);
  return verified;
}

/** Step two, once the sign-in succeeded: the verified key is stored for the user. */
async function saveEnrollment(
  app: App,
  user: UserRecord,
  verified: VerifiedKey | undefined,
): Promise<string | undefined> {
  if (!verified) return undefined;
  await app.storage.addCredential({
    id: verified.id,
    userId: user.id,
    publicKey: verified.publicKey,
    counter: verified.counter,
    lastTimestamp: 0,
    created: app.now(),
  });
  return verified.id;
}

export function authRoutes(app: App) {
  return {
    // docs/api.md#calls: the list of credential ids of an e-mail (key login needs at least one).
    async credentials(ctx) {
      const email = field(emailSchema, ctx.requireHeader(HEADER.email), "e-mail");
      const user = await app.storage.getUserByEmail(email);
      if (!user || user.passwordHash === null) throw new ApiError(API_ERROR.NO_SUCH_USER);
      return (await app.storage.listCredentials(user.id)).map((c) => c.id);
    },
    // docs/decisions.md#d5: only e-mails an admin permitted get a code; others 606.
    async code(ctx) {
      const email = field(emailSchema, ctx.requireHeader(HEADER.email), "e-mail");
      const user = await app.storage.getUserByEmail(email);
      if (!user) throw new ApiError(API_ERROR.NO_SUCH_USER);
      // held: a code sent less than 5 minutes ago is in the mailbox (docs/server-limits.md "Sign-in")
      return (await issueEmailCode(app, email, ctx.ip)) === "sent" ? { sent: true } : { sent: false, held: true };
    },
    async register(ctx) {
      const email = field(emailSchema, ctx.requireHeader(HEADER.email), "e-mail");
      const password = field(passwordSchema, ctx.requireHeader(HEADER.password), "password");
      const code = field(codeSchema, ctx.requireHeader(HEADER.code), "code").toUpperCase();
      await app.signIn.check(ctx.ip, email);
      const now = app.now();
      let user = await app.storage.getUserByEmail(email);
      const setupHash = await app.storage.getMeta(SETUP_CODE_META);
      const setupMatches = Boolean(setupHash) && !user && safeEqual(sha256Hex(code), setupHash ?? "");
      if (setupHash && !user && !setupMatches) await app.signIn.fail(ctx.ip);
      // docs/decisions.md#d5: the account registered with the one-time setup code is the first admin; the
      // code is taken with a compare-and-delete so two parallel registrations make one admin.
      const firstKey = setupMatches ? await checkEnrollment(app, ctx, email, code) : undefined;
      if (setupHash && setupMatches && (await app.storage.takeMeta(SETUP_CODE_META, setupHash))) {
        rmSync(setupCodeFile(app.config.dataDir), { force: true });
        user = {
          id: randomUUID(),
          email,
          passwordHash: await hashPassword(password, app.config.scryptCost),
          admin: true,
          scope: "all",
          lastActive: now,
          created: now,
        };
        await app.storage.createUser(user);
        app.logger.info("first admin registered", { user: user.id });
        const credentialsId = await saveEnrollment(app, user, firstKey);
        return issueSession(app, ctx, user, credentialsId);
      }
      if (!user) throw new ApiError(API_ERROR.NO_SUCH_USER);
      if (user.passwordHash !== null) throw taskFailed("This e-mail is already registered: sign in instead", 409);
      const codeId = await claimEmailCode(app, email, code, ctx.ip);
      const key = await checkEnrollment(app, ctx, email, code);
      if (!(await app.storage.consumeEmailCode(codeId))) throw taskFailed(WRONG_CREDENTIALS, 401);
      const passwordHash = await hashPassword(password, app.config.scryptCost);
      await app.storage.updateUser(user.id, { passwordHash });
      user.passwordHash = passwordHash;
      return issueSession(app, ctx, user, await saveEnrollment(app, user, key));
    },
    async loginPassword(ctx) {
      const email = field(emailSchema, ctx.requireHeader(HEADER.email), "e-mail");
      const password = ctx.requireHeader(HEADER.password);
      const code = field(codeSchema, ctx.requireHeader(HEADER.code), "code").toUpperCase();
      checkTimestamp(app, ctx);
      await app.signIn.check(ctx.ip, email);
      const user = await app.storage.getUserByEmail(email);
      if (!user || user.passwordHash === null) {
        await app.signIn.fail(ctx.ip);
        throw new ApiError(API_ERROR.NO_SUCH_USER);
      }
      // The code's attempt is spent before the password is checked: 5 password guesses per code.
      const codeId = await claimEmailCode(app, email, code, ctx.ip);
      if (!(await verifyPassword(password, user.passwordHash))) {
        await app.signIn.fail(ctx.ip, email);
        throw taskFailed(WRONG_CREDENTIALS, 401);
      }
      const key = await checkEnrollment(app, ctx, email, code);
      if (!(await app.storage.consumeEmailCode(codeId))) throw taskFailed(WRONG_CREDENTIALS, 401);
      return issueSession(app, ctx, user, await saveEnrollment(app, user, key));
    },
    async loginSignature(ctx) {
      const email = field(emailSchema, ctx.requireHeader(HEADER.email), "e-mail");
      const clientData = ctx.requireHeader(HEADER.clientData);
      const authenticatorData = ctx.requireHeader(HEADER.authenticatorData);
      const credentialsId = ctx.requireHeader(HEADER.credentialsId);
      const signature = ctx.requireHeader(HEADER.signature);
      const timestamp = checkTimestamp(app, ctx);
      // A key signature cannot be guessed: like a token it is checked first and only a refused one
      // counts, against the address (604 past its budget), so no one's failures, on the e-mail or
      // behind the same address, ever keep the owner's key out (docs/server-limits.md "Sign-in").
      try {
        const user = await app.storage.getUserByEmail(email);
        if (!user || user.passwordHash === null) throw new ApiError(API_ERROR.NO_SUCH_USER);
        const credential = await app.storage.getCredential(credentialsId.replace(/=+$/, ""));
        if (!credential || credential.userId !== user.id) throw taskFailed("Unknown key for this e-mail", 401);
        const counter = await verifyKeyLogin(app, credential, {
          clientData,
          authenticatorData,
          signature,
          timestamp,
          method: ctx.method,
          path: ctx.path,
        });
        // One login per timestamp and key: a replayed assertion is refused.
        if (!(await app.storage.recordKeyLogin(credential.id, counter, timestamp)))
          throw taskFailed("Key login refused: replayed signature", 401);
        return await issueSession(app, ctx, user, credential.id);
      } catch (error) {
        if (error instanceof ApiError && error.status !== 500) await app.signIn.failToken(ctx.ip);
        throw error;
      }
    },
    // docs/decisions.md#d7: the refresh token comes in the cookie and is rotated; a rotated token used again
    // is a replay and ends the session.
    async refresh(ctx): Promise<RefreshAnswer> {
      const userId = ctx.requireHeader(HEADER.userId);
      checkTimestamp(app, ctx);
      return refreshSession(app, ctx, userId);
    },
    // docs/decisions.md#d7: exit revokes the refresh token (and with it every access token of the session).
    async logout(ctx) {
      await revokeSession(app, ctx);
      return { ok: true };
    },
    async me(ctx) {
      const user = ctx.user!;
      return { uuid: user.id, email: user.email, admin: user.admin, scope: user.scope, lastActive: user.lastActive };
    },
  } satisfies RouteHandlers;
}
